import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { PUBLIC_WRITE_LIMIT } from '../../common/security';
import type { CreateLeadResponse } from '@contracts/api-types';
import { CreateLeadDto } from './dto/create-lead.dto';
import { attributionFromRequest } from '../../common/lead-attribution';
import { LeadsService } from './leads.service';

@ApiTags('leads')
@Controller('leads')
export class LeadsController {
  constructor(private readonly leads: LeadsService) {}

  @Post()
  @HttpCode(201)
  @RouteConfig(PUBLIC_WRITE_LIMIT)
  @ApiCreatedResponse({
    description: 'Submission stored. The answer is the same whether or not the e-mail was already known.',
    schema: { type: 'object', properties: { received: { type: 'boolean', enum: [true] } }, required: ['received'] },
  })
  @ApiBadRequestResponse({ description: 'Invalid e-mail, wrong types, control characters, unknown fields or malformed JSON' })
  @ApiTooManyRequestsResponse({ description: 'Rate limit for this client reached' })
  create(@Body() dto: CreateLeadDto, @Req() req: FastifyRequest): Promise<CreateLeadResponse> {
    return this.leads.create(dto, attributionFromRequest(dto.attribution, req.headers.cookie));
  }
}
