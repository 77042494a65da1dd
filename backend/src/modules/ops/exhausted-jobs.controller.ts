import { BadRequestException, Controller, Get, Header, HttpCode, Param, ParseUUIDPipe, Post, Req } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { ExhaustedJobList, ExhaustedJobRetry } from '@contracts/admin';
import { AdminOnly, CurrentAdmin } from '../../common/admin-access/admin.guard';
import type { AdminPrincipal } from '../../common/admin-access/admin-session.service';
import { ExhaustedJobsService } from './exhausted-jobs.service';

/** Background jobs that gave up after their retry horizon, and their one-click, audited retry. */
@ApiTags('admin')
@Controller('admin/exhausted-jobs')
@AdminOnly()
export class ExhaustedJobsController {
  constructor(private readonly jobs: ExhaustedJobsService) {}

  @Get()
  @Header('cache-control', 'no-store')
  @ApiOkResponse({ description: 'Jobs that gave up, most recent first, with the reason' })
  list(): Promise<ExhaustedJobList> {
    return this.jobs.list();
  }

  @Post(':id/retry')
  @HttpCode(200)
  @ApiOkResponse({ description: 'Offered again under the same job id with a fresh retry horizon; recorded in the audit log' })
  @ApiNotFoundResponse({ description: 'No job that gave up has this id (it may have been retried already)' })
  @ApiConflictResponse({ description: 'The job is already queued or running again' })
  @ApiServiceUnavailableResponse({ description: 'Redis cannot be reached; nothing was changed' })
  retry(
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => new BadRequestException('The job id is not valid') })) id: string,
    @CurrentAdmin() admin: AdminPrincipal,
    @Req() req: FastifyRequest,
  ): Promise<ExhaustedJobRetry> {
    return this.jobs.retry(id, admin.adminId, req.ip);
  }
}
