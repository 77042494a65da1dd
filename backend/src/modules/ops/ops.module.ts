import { Module } from '@nestjs/common';
import { AdminAccessModule } from '../../common/admin-access/admin-access.module';
import { ExhaustedJobsController } from './exhausted-jobs.controller';
import { ExhaustedJobsService } from './exhausted-jobs.service';
import { MetricsController } from './metrics.controller';
import { MetricsGuard } from './metrics.guard';
import { MetricsService } from './metrics.service';
import { QueueDashboard } from './queue-dashboard.service';

/**
 * For the people who run the funnel: the queue dashboard (/admin/queues), the jobs that gave up
 * (/api/admin/exhausted-jobs) and /api/metrics.
 */
@Module({
  imports: [AdminAccessModule],
  controllers: [MetricsController, ExhaustedJobsController],
  providers: [MetricsService, MetricsGuard, QueueDashboard, ExhaustedJobsService],
})
export class OpsModule {}
