import { Module } from '@nestjs/common';
import { AdminAccessModule } from '../../common/admin-access/admin-access.module';
import { AuditLogService } from './audit-log.service';
import { DashboardController } from './dashboard.controller';
import { FunnelService } from './funnel.service';
import { PeopleController } from './people.controller';
import { PeopleService } from './people.service';
import { RecordsController } from './records.controller';
import { RecordsService } from './records.service';
import { RevenueController } from './revenue.controller';
import { RevenueService } from './revenue.service';

/** The operations side of /admin: funnel and revenue figures, lead and order lists, a person's data, the audit log. */
@Module({
  imports: [AdminAccessModule],
  controllers: [DashboardController, RecordsController, PeopleController, RevenueController],
  providers: [FunnelService, RecordsService, PeopleService, AuditLogService, RevenueService],
})
export class AdminDashboardModule {}
