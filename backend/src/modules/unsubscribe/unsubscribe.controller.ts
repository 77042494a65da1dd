import { Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { site } from '@contracts/site/site';
import { PUBLIC_WRITE_LIMIT } from '../../common/security';
import { confirmUnsubscribePage, unsubscribedPage } from './unsubscribe-page';
import { UnsubscribeService } from './unsubscribe.service';

/**
 * The signed unsubscribe link of every marketing e-mail, `/api/unsubscribe?token=…`. POST is the
 * RFC 8058 one-click unsubscribe (mail clients send `List-Unsubscribe=One-Click`; the token in
 * the URL is all that counts) and the confirmation page's button. GET only shows that page.
 */
@ApiExcludeController()
@Controller('unsubscribe')
export class UnsubscribeController {
  constructor(private readonly unsubscribes: UnsubscribeService) {}

  @Get()
  async confirm(@Query('token') token: unknown, @Res() reply: FastifyReply): Promise<void> {
    this.unsubscribes.check(token);
    await reply
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(confirmUnsubscribePage(site.brand.name, token as string));
  }

  @Post()
  @HttpCode(200)
  @RouteConfig(PUBLIC_WRITE_LIMIT)
  async unsubscribe(@Query('token') token: unknown, @Res() reply: FastifyReply): Promise<void> {
    await this.unsubscribes.unsubscribe(token);
    await reply
      .status(200)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(unsubscribedPage(site.brand.name));
  }
}
