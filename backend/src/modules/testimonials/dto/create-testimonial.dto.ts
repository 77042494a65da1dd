import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { CreateTestimonialRequest } from '@contracts/admin';
import { Featured, OptionalHttpUrl, Rating, RequiredText } from './testimonial-fields';

export class CreateTestimonialDto implements CreateTestimonialRequest {
  @ApiProperty({ maxLength: 200 })
  @RequiredText('Name', 200)
  name: string;

  @ApiProperty({ description: 'The role, shown under the name', maxLength: 200 })
  @RequiredText('Title', 200)
  title: string;

  @ApiProperty({ description: 'Plain text; HTML is stored and shown as text', maxLength: 5000 })
  @RequiredText('Content', 5000, { multiline: true })
  content: string;

  @ApiPropertyOptional({ nullable: true, description: 'http(s) URL; empty for none' })
  @OptionalHttpUrl('Video URL')
  videoUrl?: string | null;

  @ApiPropertyOptional({ nullable: true, description: 'http(s) URL; empty for none' })
  @OptionalHttpUrl('Image URL')
  imageUrl?: string | null;

  @ApiPropertyOptional({ minimum: 1, maximum: 5, default: 5 })
  @Rating()
  rating?: number;

  @ApiPropertyOptional({ default: false })
  @Featured()
  featured?: boolean;
}
