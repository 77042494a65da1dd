import { Injectable, NotFoundException } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { FeaturedTestimonial } from '@contracts/api-types';
import { AdminTestimonial, TESTIMONIAL_DEFAULT_RATING } from '@contracts/admin';
import { AuditRepository } from '@core/database/repositories/audit.repository';
import { TestimonialRepository, type TestimonialRow } from '@core/database/repositories/testimonial.repository';
import type { CreateTestimonialDto } from './dto/create-testimonial.dto';
import type { UpdateTestimonialDto } from './dto/update-testimonial.dto';
import { safeUrl } from './safe-url';

/** Who is acting, for the audit log. */
export interface Actor {
  adminId: string;
  clientIp: string;
}

const toAdminTestimonial = (t: TestimonialRow): AdminTestimonial => ({
  id: t.id,
  name: t.name,
  title: t.title,
  content: t.content,
  videoUrl: safeUrl(t.video_url),
  imageUrl: safeUrl(t.image_url),
  featured: t.featured,
  rating: t.rating,
  displayOrder: t.display_order,
});

/** Content is stored exactly as typed (HTML included): every page renders it as text. */
@Injectable()
export class TestimonialsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly testimonials: TestimonialRepository,
    private readonly audit: AuditRepository,
  ) {}

  /** The landing page's list: featured ones in display order. */
  async featured(): Promise<FeaturedTestimonial[]> {
    const rows = await this.testimonials.featured();
    return rows.map((row) => {
      const { id, videoUrl, imageUrl, name, title, content, rating } = toAdminTestimonial(row);
      return { id, videoUrl, imageUrl, name, title, content, rating };
    });
  }

  /** Everything, for the manager: featured ones first in display order, then the newest. */
  async list(): Promise<AdminTestimonial[]> {
    const rows = await this.testimonials.list();
    return rows.map(toAdminTestimonial);
  }

  create(dto: CreateTestimonialDto, actor: Actor): Promise<AdminTestimonial> {
    return this.dataSource.transaction(async (m) => {
      const featured = dto.featured ?? false;
      if (featured) await this.testimonials.lockDisplayOrder(m);
      const row = await this.testimonials.insert(m, {
        name: dto.name,
        title: dto.title,
        content: dto.content,
        video_url: dto.videoUrl ?? null,
        image_url: dto.imageUrl ?? null,
        rating: dto.rating ?? TESTIMONIAL_DEFAULT_RATING,
        featured,
      });
      await this.audit.record(
        { adminId: actor.adminId, action: 'testimonial.create', target: `testimonial:${row.id}`, clientIp: actor.clientIp },
        m,
      );
      return toAdminTestimonial(row);
    });
  }

  update(id: string, dto: UpdateTestimonialDto, actor: Actor): Promise<AdminTestimonial> {
    return this.dataSource.transaction(async (m) => {
      await this.testimonials.lockDisplayOrder(m);
      const current = await this.lockRow(m, id);
      await this.testimonials.update(m, id, {
        name: dto.name,
        title: dto.title,
        content: dto.content,
        video_url: dto.videoUrl,
        image_url: dto.imageUrl,
        rating: dto.rating,
        featured: dto.featured,
      });
      const featured = dto.featured ?? current.featured;
      if (featured && (dto.displayOrder !== undefined || !current.featured)) {
        await this.placeAmongFeatured(m, id, dto.displayOrder ?? Number.MAX_SAFE_INTEGER);
      }
      await this.audit.record(
        { adminId: actor.adminId, action: 'testimonial.update', target: `testimonial:${id}`, clientIp: actor.clientIp },
        m,
      );
      return toAdminTestimonial(await this.lockRow(m, id));
    });
  }

  remove(id: string, actor: Actor): Promise<void> {
    return this.dataSource.transaction(async (m) => {
      const deleted = await this.testimonials.delete(m, id);
      if (deleted === 0) throw new NotFoundException('This testimonial no longer exists; it may have been deleted already.');
      await this.audit.record(
        { adminId: actor.adminId, action: 'testimonial.delete', target: `testimonial:${id}`, clientIp: actor.clientIp },
        m,
      );
    });
  }

  private async lockRow(m: EntityManager, id: string): Promise<TestimonialRow> {
    const row = await this.testimonials.lockRow(m, id);
    if (!row) throw new NotFoundException('This testimonial no longer exists; it may have been deleted already.');
    return row;
  }

  /** Puts one featured testimonial at `position` (0-based, clamped) and numbers the featured ones 0, 1, 2… */
  private async placeAmongFeatured(m: EntityManager, id: string, position: number): Promise<void> {
    const ids = await this.testimonials.featuredIdsExcept(m, id);
    ids.splice(Math.min(position, ids.length), 0, id);
    await this.testimonials.renumber(m, ids);
  }
}
