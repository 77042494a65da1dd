import { Body, Controller, Get, Header, HttpCode, NotFoundException, Param, ParseUUIDPipe, Post, Query, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { AdminBillingOrder, AdminInstalmentStop, AdminPage, AdminRefund } from '@contracts/admin';
import { AdminOnly, CurrentAdmin } from '../../common/admin-access/admin.guard';
import type { AdminPrincipal } from '../../common/admin-access/admin-session.service';
import { BillingQueryDto } from './dto/billing-query.dto';
import { RefundRequestDto } from './dto/refund-request.dto';
import { InstalmentStopsService } from './instalment-stops.service';
import { RefundsService } from './refunds.service';

@ApiTags('admin')
@Controller('admin/billing')
@AdminOnly()
export class BillingController {
  constructor(
    private readonly refunds: RefundsService,
    private readonly instalments: InstalmentStopsService,
  ) {}

  @Get('orders')
  @Header('cache-control', 'no-store')
  @ApiOkResponse({ description: 'Orders newest first (q: part of the e-mail, or an order id), each with its payments and their refunds' })
  orders(@Query() query: BillingQueryDto): Promise<AdminPage<AdminBillingOrder>> {
    return this.refunds.orders(query.q, query.page, query.pageSize);
  }

  @Post('payments/:paymentId/refunds')
  @HttpCode(200)
  @ApiOkResponse({ description: 'The refund of this request key (made now, or earlier under the same key), audited' })
  @ApiBadRequestResponse({ description: 'More than is left of the payment, or refused by the payment provider' })
  @ApiNotFoundResponse({ description: 'No payment has this id' })
  @ApiServiceUnavailableResponse({ description: 'The payment provider did not answer; send the same request again' })
  refund(
    @Param('paymentId', new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('There is no payment with this id.') }))
    paymentId: string,
    @Body() body: RefundRequestDto,
    @CurrentAdmin() admin: AdminPrincipal,
    @Req() req: FastifyRequest,
  ): Promise<AdminRefund> {
    return this.refunds.refund(paymentId, body, { adminId: admin.adminId, email: admin.email, clientIp: req.ip });
  }

  @Post('orders/:orderId/stop-instalments')
  @HttpCode(200)
  @ApiOkResponse({
    description: "The plan's later instalments stopped (now, or earlier), audited; the provider's schedule is canceled next",
  })
  @ApiBadRequestResponse({ description: 'Not an instalment plan, not paid, paid in full, or its access already ended' })
  @ApiNotFoundResponse({ description: 'No order has this id' })
  stopInstalments(
    @Param('orderId', new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('There is no order with this id.') }))
    orderId: string,
    @CurrentAdmin() admin: AdminPrincipal,
    @Req() req: FastifyRequest,
  ): Promise<AdminInstalmentStop> {
    return this.instalments.stop(orderId, { adminId: admin.adminId, clientIp: req.ip });
  }
}
