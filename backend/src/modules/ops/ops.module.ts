import { Module } from '@nestjs/common';
import { AdminAccessModule } from '../../common/admin-access/admin-access.module';
import { MetricsController } from './metrics.controller';
import { MetricsGuard } from './metrics.guard';
import { MetricsService } from './metrics.service';
import { QueueDashboard } from './queue-dashboard.service';

/** For the people who run the funnel: the queue dashboard (/admin/queues) and /api/metrics. */
@Module({
  imports: [AdminAccessModule],
  controllers: [MetricsController],
  providers: [MetricsService, MetricsGuard, QueueDashboard],
})
export class OpsModule {}
