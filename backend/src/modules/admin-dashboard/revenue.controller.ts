import { Controller, Get, Header, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { RevenueReport } from '@contracts/revenue';
import { AdminOnly } from '../../common/admin-access/admin.guard';
import { RevenueExportQueryDto, RevenueQueryDto } from './dto/revenue-query.dto';
import { revenueRange } from './revenue-range';
import { RevenueService } from './revenue.service';

@ApiTags('admin')
@Controller('admin/revenue')
@AdminOnly()
export class RevenueController {
  constructor(private readonly revenue: RevenueService) {}

  @Get()
  @Header('cache-control', 'no-store')
  @ApiOkResponse({
    description:
      'MRR now and by month (new, expansion, contraction, churned, reactivated), churn, recovery, refunds, disputes, plans, cohorts',
  })
  @ApiBadRequestResponse({ description: 'from/to not months (YYYY-MM), reversed, or over 36 months apart; mode not live or test' })
  report(@Query() query: RevenueQueryDto): Promise<RevenueReport> {
    return this.revenue.report(revenueRange(query.from, query.to), query.mode);
  }

  @Get('export.csv')
  @Header('cache-control', 'no-store')
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: "One of the report's tables (months, members, plans, cohorts) as CSV" })
  @ApiBadRequestResponse({ description: 'table missing or unknown, or the range or mode refused as for the report' })
  async csv(@Query() query: RevenueExportQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const range = revenueRange(query.from, query.to);
    const csv = await this.revenue.csv(query.table, range, query.mode);
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header(
      'content-disposition',
      `attachment; filename="revenue-${query.table}-${range.fromMonth.slice(0, 7)}-to-${range.toMonth.slice(0, 7)}.csv"`,
    );
    return csv;
  }
}
