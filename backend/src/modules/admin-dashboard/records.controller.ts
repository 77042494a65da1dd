import { Controller, Get, Header, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdminLeadRow, AdminMemberRow, AdminOrderRow, AdminPage } from '@contracts/admin';
import { AdminOnly, CurrentAdmin } from '../../common/admin-access/admin.guard';
import type { AdminPrincipal } from '../../common/admin-access/admin-session.service';
import { AuditRepository } from '@core/database/repositories/audit.repository';
import { ExportQueryDto, ListQueryDto, MemberExportQueryDto, MemberListQueryDto } from './dto/list-query.dto';
import { RecordsService } from './records.service';

function sendCsv(reply: FastifyReply, name: string, csv: string): string {
  reply.header('content-type', 'text/csv; charset=utf-8');
  reply.header('content-disposition', `attachment; filename="${name}-${new Date().toISOString().slice(0, 10)}.csv"`);
  return csv;
}

@ApiTags('admin')
@Controller('admin')
@AdminOnly()
export class RecordsController {
  constructor(
    private readonly records: RecordsService,
    private readonly audit: AuditRepository,
  ) {}

  @Get('leads')
  @Header('cache-control', 'no-store')
  @ApiOkResponse({ description: 'Leads, most recently submitted first; q searches the e-mail' })
  leads(@Query() query: ListQueryDto): Promise<AdminPage<AdminLeadRow>> {
    return this.records.leads(query.q, query.page, query.pageSize);
  }

  @Get('orders')
  @Header('cache-control', 'no-store')
  @ApiOkResponse({ description: 'Orders, newest first; q searches the e-mail' })
  orders(@Query() query: ListQueryDto): Promise<AdminPage<AdminOrderRow>> {
    return this.records.orders(query.q, query.page, query.pageSize);
  }

  @Get('members')
  @Header('cache-control', 'no-store')
  @ApiOkResponse({ description: 'Memberships (who may enter which members area), most recently changed first; q searches the e-mail' })
  members(@Query() query: MemberListQueryDto): Promise<AdminPage<AdminMemberRow>> {
    return this.records.members(query.q, query.status, query.page, query.pageSize);
  }

  @Get('members/export.csv')
  @Header('cache-control', 'no-store')
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'Every matching membership as CSV (formula-looking cells prefixed with an apostrophe)' })
  async membersCsv(
    @Query() query: MemberExportQueryDto,
    @CurrentAdmin() admin: AdminPrincipal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const { csv, rows } = await this.records.membersCsv(query.q, query.status);
    await this.audit.record({
      adminId: admin.adminId,
      action: 'members.export-csv',
      target: `members:${rows}${query.q || query.status ? ' filtered' : ''}`,
      clientIp: req.ip,
    });
    return sendCsv(reply, 'members', csv);
  }

  @Get('leads/export.csv')
  @Header('cache-control', 'no-store')
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'Every matching lead as CSV (formula-looking cells prefixed with an apostrophe)' })
  async leadsCsv(
    @Query() query: ExportQueryDto,
    @CurrentAdmin() admin: AdminPrincipal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const { csv, rows } = await this.records.leadsCsv(query.q);
    // The search term may be an address, so the log records only whether there was one.
    await this.audit.record({
      adminId: admin.adminId,
      action: 'leads.export-csv',
      target: `leads:${rows}${query.q ? ' filtered' : ''}`,
      clientIp: req.ip,
    });
    return sendCsv(reply, 'leads', csv);
  }

  @Get('orders/export.csv')
  @Header('cache-control', 'no-store')
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'Every matching order as CSV (formula-looking cells prefixed with an apostrophe)' })
  async ordersCsv(
    @Query() query: ExportQueryDto,
    @CurrentAdmin() admin: AdminPrincipal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const { csv, rows } = await this.records.ordersCsv(query.q);
    await this.audit.record({
      adminId: admin.adminId,
      action: 'orders.export-csv',
      target: `orders:${rows}${query.q ? ' filtered' : ''}`,
      clientIp: req.ip,
    });
    return sendCsv(reply, 'orders', csv);
  }
}
