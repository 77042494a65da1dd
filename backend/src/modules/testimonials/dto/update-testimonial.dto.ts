import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import type { UpdateTestimonialRequest } from '@contracts/admin';
import { Featured, OptionalHttpUrl, Rating, RequiredText, whenPresent } from './testimonial-fields';

const ORDER_MESSAGE = 'displayOrder must be a whole number from 0 to 10000';

/** Any subset of the testimonial; a field that is sent must be valid (null clears only the URLs). */
export class UpdateTestimonialDto implements UpdateTestimonialRequest {
  @ApiPropertyOptional({ maxLength: 200 })
  @whenPresent
  @RequiredText('Name', 200)
  name?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @whenPresent
  @RequiredText('Title', 200)
  title?: string;

  @ApiPropertyOptional({ maxLength: 5000 })
  @whenPresent
  @RequiredText('Content', 5000, { multiline: true })
  content?: string;

  @ApiPropertyOptional({ nullable: true })
  @OptionalHttpUrl('Video URL')
  videoUrl?: string | null;

  @ApiPropertyOptional({ nullable: true })
  @OptionalHttpUrl('Image URL')
  imageUrl?: string | null;

  @ApiPropertyOptional({ minimum: 1, maximum: 5 })
  @Rating()
  rating?: number;

  @ApiPropertyOptional()
  @Featured()
  featured?: boolean;

  @ApiPropertyOptional({ minimum: 0, description: '0-based position among the featured testimonials' })
  @whenPresent
  @IsInt({ message: ORDER_MESSAGE })
  @Min(0, { message: ORDER_MESSAGE })
  @Max(10_000, { message: ORDER_MESSAGE })
  displayOrder?: number;
}
