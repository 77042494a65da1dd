import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { HealthResponse } from '@contracts/api-types';
import { HealthService } from './health.service';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /**
   * Readiness for load balancers: 503 only when this instance cannot accept work (Postgres down).
   * Redis down answers 200 with status 'degraded': taking every instance out of rotation then
   * would drop the leads the outbox is there to keep.
   */
  @Get()
  @ApiOkResponse({ description: "Accepting work: status 'ok', or 'degraded' while Redis is unreachable" })
  @ApiServiceUnavailableResponse({ description: "Postgres unreachable: status 'unavailable'" })
  async readiness(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthResponse> {
    const report = await this.health.readiness();
    reply.status(report.status === 'unavailable' ? 503 : 200).header('cache-control', 'no-store');
    return report;
  }

  /** Liveness: the process answers; touches no dependency. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
