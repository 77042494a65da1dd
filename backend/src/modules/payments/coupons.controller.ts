import { Controller, Get, Header, Inject, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { CouponQuote } from '@contracts/coupons';
import type { ClientLimiter } from '../../common/client-limiter';
import { COUPON_CHECK_LIMITER } from './coupon-check-limiter';
import { CouponCheckout } from './coupon-checkout';
import { CouponQuoteQueryDto } from './dto/coupon-quote.dto';

@ApiTags('payments')
@Controller('coupons')
export class CouponsController {
  constructor(
    private readonly coupons: CouponCheckout,
    @Inject(COUPON_CHECK_LIMITER) private readonly limiter: ClientLimiter,
  ) {}

  @Get('quote')
  @Header('cache-control', 'no-store')
  @ApiOkResponse({
    description: "The plan's price with the code, computed by the server; an unusable code: valid false, why, and the full price",
  })
  @ApiTooManyRequestsResponse({ description: 'More than RATE_LIMIT_COUPON_CHECKS quotes from this client in the window' })
  async quote(@Query() query: CouponQuoteQueryDto, @Req() req: FastifyRequest): Promise<CouponQuote> {
    await this.limiter.consume(req.ip);
    return this.coupons.quote(query.code, query.plan);
  }
}
