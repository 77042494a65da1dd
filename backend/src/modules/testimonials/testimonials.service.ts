import { Injectable, NotFoundException } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { FeaturedTestimonial } from '@contracts/api-types';
import { AdminTestimonial, TESTIMONIAL_DEFAULT_RATING } from '@contracts/admin';
import { AuditService } from '../../common/admin-access/audit.service';
import type { CreateTestimonialDto } from './dto/create-testimonial.dto';
import type { UpdateTestimonialDto } from './dto/update-testimonial.dto';

/** Only http(s) URLs ever reach a browser as a link or image source. */
export function safeUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:' ? value : null;
  } catch {
    return null;
  }
}

interface TestimonialRow {
  id: string;
  name: string;
  title: string;
  content: string;
  video_url: string | null;
  image_url: string | null;
  rating: number;
  featured: boolean;
  display_order: number;
}

const COLUMNS = 'id, name, title, content, video_url, image_url, rating, featured, display_order';

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

/** Serialises changes to the featured order, so two admins reordering at once cannot interleave. */
const lockOrder = (m: EntityManager) => m.query(`SELECT pg_advisory_xact_lock(hashtext('testimonials.display_order'))`);

/** Content is stored exactly as typed (HTML included): every page renders it as text. */
@Injectable()
export class TestimonialsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
  ) {}

  /** The landing page's list: featured ones in display order. */
  async featured(): Promise<FeaturedTestimonial[]> {
    const rows: TestimonialRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM testimonials WHERE featured ORDER BY display_order, created_at`,
    );
    return rows.map((row) => {
      const { id, videoUrl, imageUrl, name, title, content, rating } = toAdminTestimonial(row);
      return { id, videoUrl, imageUrl, name, title, content, rating };
    });
  }

  /** Everything, for the manager: featured ones first in display order, then the newest. */
  async list(): Promise<AdminTestimonial[]> {
    const rows: TestimonialRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM testimonials ORDER BY featured DESC, CASE WHEN featured THEN display_order END, created_at DESC`,
    );
    return rows.map(toAdminTestimonial);
  }

  create(dto: CreateTestimonialDto, actor: Actor): Promise<AdminTestimonial> {
    return this.dataSource.transaction(async (m) => {
      const featured = dto.featured ?? false;
      if (featured) await lockOrder(m);
      // A newly featured testimonial goes to the end of the landing page's list.
      const rows: TestimonialRow[] = await m.query(
        `INSERT INTO testimonials (name, title, content, video_url, image_url, rating, featured, display_order)
         VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $7 THEN (SELECT coalesce(max(display_order) + 1, 0) FROM testimonials WHERE featured) ELSE 0 END)
         RETURNING ${COLUMNS}`,
        [dto.name, dto.title, dto.content, dto.videoUrl ?? null, dto.imageUrl ?? null, dto.rating ?? TESTIMONIAL_DEFAULT_RATING, featured],
      );
      await this.audit.record(
        { adminId: actor.adminId, action: 'testimonial.create', target: `testimonial:${rows[0].id}`, clientIp: actor.clientIp },
        m,
      );
      return toAdminTestimonial(rows[0]);
    });
  }

  update(id: string, dto: UpdateTestimonialDto, actor: Actor): Promise<AdminTestimonial> {
    return this.dataSource.transaction(async (m) => {
      await lockOrder(m);
      const current = await this.lockRow(m, id);
      const fields: Record<string, unknown> = {
        name: dto.name,
        title: dto.title,
        content: dto.content,
        video_url: dto.videoUrl,
        image_url: dto.imageUrl,
        rating: dto.rating,
        featured: dto.featured,
      };
      const sets = Object.entries(fields).filter(([, value]) => value !== undefined);
      if (sets.length > 0) {
        await m.query(`UPDATE testimonials SET ${sets.map(([column], i) => `${column} = $${i + 2}`).join(', ')} WHERE id = $1`, [
          id,
          ...sets.map(([, value]) => value),
        ]);
      }
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
      const [, deleted] = (await m.query(`DELETE FROM testimonials WHERE id = $1`, [id])) as [unknown, number];
      if (deleted === 0) throw new NotFoundException('This testimonial no longer exists; it may have been deleted already.');
      await this.audit.record(
        { adminId: actor.adminId, action: 'testimonial.delete', target: `testimonial:${id}`, clientIp: actor.clientIp },
        m,
      );
    });
  }

  private async lockRow(m: EntityManager, id: string): Promise<TestimonialRow> {
    const rows: TestimonialRow[] = await m.query(`SELECT ${COLUMNS} FROM testimonials WHERE id = $1 FOR UPDATE`, [id]);
    if (!rows[0]) throw new NotFoundException('This testimonial no longer exists; it may have been deleted already.');
    return rows[0];
  }

  /** Puts one featured testimonial at `position` (0-based, clamped) and numbers the featured ones 0, 1, 2… */
  private async placeAmongFeatured(m: EntityManager, id: string, position: number): Promise<void> {
    const others: { id: string }[] = await m.query(
      `SELECT id FROM testimonials WHERE featured AND id <> $1 ORDER BY display_order, created_at`,
      [id],
    );
    const ids = others.map((row) => row.id);
    ids.splice(Math.min(position, ids.length), 0, id);
    await m.query(
      `UPDATE testimonials t SET display_order = o.ord - 1 FROM unnest($1::uuid[]) WITH ORDINALITY AS o(id, ord) WHERE t.id = o.id`,
      [ids],
    );
  }
}
