import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiOkResponse, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { ADMIN_SESSION_COOKIE } from '../../common/admin-access/admin-session.service';
import { MetricsGuard } from './metrics.guard';
import { MetricsService } from './metrics.service';

@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @UseGuards(MetricsGuard)
  @Header('content-type', Registry.PROMETHEUS_CONTENT_TYPE)
  @Header('cache-control', 'no-store')
  @ApiBearerAuth()
  @ApiCookieAuth(ADMIN_SESSION_COOKIE)
  @ApiOkResponse({ description: 'Prometheus text format: HTTP requests, queue depths, outbox lag, job outcomes, process metrics' })
  @ApiUnauthorizedResponse({ description: 'Neither the METRICS_TOKEN bearer token nor an admin session' })
  scrape(): Promise<string> {
    return this.metrics.render();
  }
}
