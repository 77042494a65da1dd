import { Controller, Get, Header, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AdminAuditRow, AdminPage, FunnelReport } from '@contracts/admin';
import { AdminOnly } from '../../common/admin-access/admin.guard';
import { AuditLogService } from './audit-log.service';
import { FunnelQueryDto } from './dto/funnel-query.dto';
import { PageQueryDto } from '../../common/page-query.dto';
import { FunnelService } from './funnel.service';
import { reportRange } from './report-range';

@ApiTags('admin')
@Controller('admin')
@AdminOnly()
export class DashboardController {
  constructor(
    private readonly funnel: FunnelService,
    private readonly auditLog: AuditLogService,
  ) {}

  @Get('funnel')
  @Header('cache-control', 'no-store')
  @ApiOkResponse({
    description: 'Visitors → leads → checkouts → purchases, upgrade take rate, per plan and referral, revenue and the invitation funnel',
  })
  @ApiBadRequestResponse({ description: 'from/to not dates, reversed, or over a year apart' })
  funnelReport(@Query() query: FunnelQueryDto): Promise<FunnelReport> {
    return this.funnel.report(reportRange(query.from, query.to));
  }

  @Get('audit')
  @Header('cache-control', 'no-store')
  @ApiOkResponse({ description: 'The admin audit log, newest first' })
  audit(@Query() query: PageQueryDto): Promise<AdminPage<AdminAuditRow>> {
    return this.auditLog.page(query.page, query.pageSize);
  }
}
