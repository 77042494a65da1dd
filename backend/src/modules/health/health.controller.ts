import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { HealthResponse } from '../../shared/contracts/api-types';
import { HealthService } from './health.service';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** Readiness: Postgres, Redis and queue depth. 503 while a dependency is down. */
  @Get()
  @ApiOkResponse({ description: 'All dependencies reachable' })
  @ApiServiceUnavailableResponse({ description: 'Postgres or Redis unreachable' })
  async readiness(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthResponse> {
    const report = await this.health.readiness();
    reply.status(report.status === 'ok' ? 200 : 503).header('cache-control', 'no-store');
    return report;
  }

  /** Liveness: the process answers; touches no dependency. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
