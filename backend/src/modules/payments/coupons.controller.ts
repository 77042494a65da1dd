import { Controller, Get, Header, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { CouponQuote } from '@contracts/coupons';
import { CouponCheckout } from './coupon-checkout';
import { CouponQuoteQueryDto } from './dto/coupon-quote.dto';

@ApiTags('payments')
@Controller('coupons')
export class CouponsController {
  constructor(private readonly coupons: CouponCheckout) {}

  @Get('quote')
  @Header('cache-control', 'no-store')
  @ApiOkResponse({
    description: "The plan's price with the code, computed by the server; an unusable code: valid false, why, and the full price",
  })
  quote(@Query() query: CouponQuoteQueryDto): Promise<CouponQuote> {
    return this.coupons.quote(query.code, query.plan);
  }
}
