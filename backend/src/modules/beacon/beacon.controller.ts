import { BadRequestException, Controller, HttpCode, PayloadTooLargeException, Post, Req } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiNoContentResponse,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { BuiltPages } from '../../common/built-pages';
import { PUBLIC_WRITE_LIMIT } from '../../common/security';
import { BEACON_MAX_BYTES, BEACON_SCHEMA, parseBeacon } from './beacon-request';
import { BeaconService } from './beacon.service';

@ApiTags('funnel')
@Controller('beacon')
export class BeaconController {
  constructor(
    private readonly beacons: BeaconService,
    private readonly pages: BuiltPages,
  ) {}

  @Post()
  @HttpCode(204)
  // Its own counter under the public write limit (RATE_LIMIT_WRITES a window): far above one person's page views.
  @RouteConfig(PUBLIC_WRITE_LIMIT)
  // navigator.sendBeacon sends its JSON string as text/plain: both carry the same object.
  @ApiConsumes('application/json', 'text/plain')
  @ApiBody({ description: `One funnel event as a JSON object, at most ${BEACON_MAX_BYTES} bytes`, schema: BEACON_SCHEMA })
  @ApiNoContentResponse({ description: 'Recorded' })
  @ApiBadRequestResponse({ description: 'Malformed beacon, unknown field, or not a public page path' })
  @ApiPayloadTooLargeResponse({ description: `Body over ${BEACON_MAX_BYTES} bytes` })
  @ApiTooManyRequestsResponse({ description: 'Too many beacons from this client' })
  async record(@Req() req: FastifyRequest): Promise<void> {
    if (Number(req.headers['content-length']) > BEACON_MAX_BYTES) throw new PayloadTooLargeException('The beacon is too large.');
    // Read from the request, not @Body(): the validation pipe takes only JSON objects, and a beacon may be a text/plain string.
    const event = parseBeacon(req.body);
    // The funnel counts the pages this deployment serves: a free-form path could carry anything.
    if (!this.pages.has(event.path)) throw new BadRequestException('path is not a public page of the funnel');
    await this.beacons.record(event);
  }
}
