import { Controller, HttpCode, PayloadTooLargeException, Post, Req } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { ApiBadRequestResponse, ApiNoContentResponse, ApiPayloadTooLargeResponse, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { BEACON_MAX_BYTES, parseBeacon } from './beacon-request';
import { BeaconService } from './beacon.service';

/**
 * A browser sends a page view per route change, far more than form posts, so the beacon has its
 * own per-client limit (generous for a person, a wall for a flood) rather than the write limit.
 */
const BEACON_LIMIT = { rateLimit: { max: 300, timeWindow: 60_000 } };

@ApiTags('funnel')
@Controller('beacon')
export class BeaconController {
  constructor(private readonly beacons: BeaconService) {}

  @Post()
  @HttpCode(204)
  @RouteConfig(BEACON_LIMIT)
  @ApiNoContentResponse({ description: 'Recorded. Body: {type, visitorId, path, plan?, referral?} as JSON, sent as application/json or text/plain (navigator.sendBeacon)' })
  @ApiBadRequestResponse({ description: 'Malformed beacon, unknown field, or not a public page path' })
  @ApiPayloadTooLargeResponse({ description: `Body over ${BEACON_MAX_BYTES} bytes` })
  @ApiTooManyRequestsResponse({ description: 'Too many beacons from this client' })
  async record(@Req() req: FastifyRequest): Promise<void> {
    if (Number(req.headers['content-length']) > BEACON_MAX_BYTES) throw new PayloadTooLargeException('The beacon is too large.');
    // Read from the request, not @Body(): the validation pipe takes only JSON objects, and a beacon may be a text/plain string.
    await this.beacons.record(parseBeacon(req.body));
  }
}
