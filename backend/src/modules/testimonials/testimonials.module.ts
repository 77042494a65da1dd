import { Module } from '@nestjs/common';
import { AdminAccessModule } from '../../common/admin-access/admin-access.module';
import { TestimonialsController } from './testimonials.controller';
import { TestimonialsService } from './testimonials.service';

@Module({
  imports: [AdminAccessModule],
  controllers: [TestimonialsController],
  providers: [TestimonialsService],
})
export class TestimonialsModule {}
