import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import type { AdminRefundRequest } from '@contracts/admin';

/** POST /api/admin/billing/payments/{paymentId}/refunds. */
export class RefundRequestDto implements AdminRefundRequest {
  @ApiProperty({ format: 'uuid', description: 'Made when the refund dialog opens: the same key is the same refund' })
  @IsUUID('all', { message: 'requestKey must be a UUID' })
  requestKey!: string;

  @ApiPropertyOptional({ minimum: 1, description: "The payment currency's minor units (cents; yen for JPY); what is left of the payment when omitted" })
  @IsOptional()
  @IsInt({ message: 'amountCents must be a whole number of minor units (cents)' })
  @Min(1, { message: 'A refund must be at least the smallest unit of the currency (one cent, one yen).' })
  @Max(100_000_000, { message: 'amountCents is too large' })
  amountCents?: number;

  @ApiPropertyOptional({ enum: ['bump'], description: "'bump': the add-on (order bump) alone, at what it charged with this first payment" })
  @IsOptional()
  @IsIn(['bump'], { message: "line must be 'bump' (the add-on) when given" })
  line?: 'bump';
}
