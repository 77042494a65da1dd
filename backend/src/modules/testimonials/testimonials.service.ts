import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { FeaturedTestimonial } from '../../shared/contracts/api-types';
import { Testimonial } from '../../shared/database/entities';

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

@Injectable()
export class TestimonialsService {
  constructor(@InjectRepository(Testimonial) private readonly testimonials: Repository<Testimonial>) {}

  async featured(): Promise<FeaturedTestimonial[]> {
    const rows = await this.testimonials.find({
      where: { featured: true },
      order: { displayOrder: 'ASC', createdAt: 'ASC' },
    });
    return rows.map((t) => ({
      id: t.id,
      videoUrl: safeUrl(t.videoUrl),
      imageUrl: safeUrl(t.imageUrl),
      name: t.name,
      title: t.title,
      content: t.content,
      rating: t.rating,
    }));
  }
}
