import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FeaturedTestimonial } from '../../shared/contracts/api-types';
import { TestimonialsService } from './testimonials.service';

@ApiTags('testimonials')
@Controller('testimonials')
export class TestimonialsController {
  constructor(private readonly testimonials: TestimonialsService) {}

  /** The landing page's list; shared caches may keep it for a minute. */
  @Get('featured')
  @Header('cache-control', 'public, max-age=60')
  @ApiOkResponse({ description: 'Featured testimonials in display order' })
  featured(): Promise<FeaturedTestimonial[]> {
    return this.testimonials.featured();
  }
}
