import { Body, Controller, Get, Header, HttpCode, NotFoundException, Param, ParseUUIDPipe, Post, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { AdminCoupon } from '@contracts/coupons';
import { AdminOnly, CurrentAdmin } from '../../common/admin-access/admin.guard';
import type { AdminPrincipal } from '../../common/admin-access/admin-session.service';
import { AdminCouponsService } from './admin-coupons.service';
import { CreateCouponDto } from './dto/create-coupon.dto';

@ApiTags('admin')
@Controller('admin/coupons')
@AdminOnly()
export class AdminCouponsController {
  constructor(private readonly coupons: AdminCouponsService) {}

  @Get()
  @Header('cache-control', 'no-store')
  @ApiOkResponse({ description: 'Every coupon, newest first, with its redemptions' })
  list(): Promise<AdminCoupon[]> {
    return this.coupons.list();
  }

  @Post()
  @HttpCode(201)
  @ApiOkResponse({ description: 'The new coupon, audited' })
  @ApiBadRequestResponse({ description: 'Invalid terms' })
  @ApiConflictResponse({ description: 'The code exists already' })
  create(@Body() body: CreateCouponDto, @CurrentAdmin() admin: AdminPrincipal, @Req() req: FastifyRequest): Promise<AdminCoupon> {
    return this.coupons.create(body, { adminId: admin.adminId, clientIp: req.ip });
  }

  @Post(':id/deactivate')
  @HttpCode(200)
  @ApiOkResponse({ description: 'The coupon, no longer accepted at checkout (orders already made keep it), audited' })
  @ApiNotFoundResponse({ description: 'No coupon has this id' })
  deactivate(
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('There is no coupon with this id.') })) id: string,
    @CurrentAdmin() admin: AdminPrincipal,
    @Req() req: FastifyRequest,
  ): Promise<AdminCoupon> {
    return this.coupons.deactivate(id, { adminId: admin.adminId, clientIp: req.ip });
  }
}
