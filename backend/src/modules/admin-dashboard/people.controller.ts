import { Body, Controller, Get, Header, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErasePersonResponse, PersonData } from '@contracts/admin';
import { AdminOnly, CurrentAdmin } from '../../common/admin-access/admin.guard';
import type { AdminPrincipal } from '../../common/admin-access/admin-session.service';
import { AuditRepository } from '@core/database/repositories/audit.repository';
import { PersonEmailDto } from './dto/person-email.dto';
import { auditTarget, PeopleService } from './people.service';

@ApiTags('admin')
@Controller('admin/people')
@AdminOnly()
export class PeopleController {
  constructor(
    private readonly people: PeopleService,
    private readonly audit: AuditRepository,
  ) {}

  @Get()
  @Header('cache-control', 'no-store')
  @ApiOkResponse({ description: 'Everything held about one e-mail address (empty lists when nothing is)' })
  async find(@Query() query: PersonEmailDto, @CurrentAdmin() admin: AdminPrincipal, @Req() req: FastifyRequest): Promise<PersonData> {
    const { data, subjects } = await this.people.find(query.email);
    await this.audit.record({ adminId: admin.adminId, action: 'person.view', target: auditTarget(subjects), clientIp: req.ip });
    return data;
  }

  @Get('export')
  @Header('cache-control', 'no-store')
  @ApiOkResponse({ description: 'The same data as a JSON file download' })
  async export(
    @Query() query: PersonEmailDto,
    @CurrentAdmin() admin: AdminPrincipal,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PersonData> {
    const { data, subjects } = await this.people.find(query.email);
    await this.audit.record({ adminId: admin.adminId, action: 'person.export', target: auditTarget(subjects), clientIp: req.ip });
    // The file name carries no address: downloads folders and browser histories are not private.
    reply.header('content-disposition', `attachment; filename="person-data-${new Date().toISOString().slice(0, 10)}.json"`);
    return data;
  }

  @Post('erase')
  @HttpCode(200)
  @ApiOkResponse({ description: 'Personal fields erased in one transaction; financial records kept anonymised; recorded in the audit log' })
  @ApiBadRequestResponse({ description: 'email missing, not text, too long, with control characters, or unknown fields' })
  @ApiNotFoundResponse({ description: 'Nothing is held about this address' })
  erase(@Body() dto: PersonEmailDto, @CurrentAdmin() admin: AdminPrincipal, @Req() req: FastifyRequest): Promise<ErasePersonResponse> {
    return this.people.erase(dto.email, admin.adminId, req.ip);
  }
}
