import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsISO8601, IsOptional, Matches, Max, Min, ValidateIf } from 'class-validator';
import { Transform } from 'class-transformer';
import type { CouponKind, CreateCouponRequest } from '@contracts/coupons';
import type { PlanId } from '@contracts/plans';
import { COUPONABLE_PLAN_IDS } from '@core/coupons/coupon-pricing';

/** POST /api/admin/coupons. */
export class CreateCouponDto implements CreateCouponRequest {
  @ApiProperty({ example: 'SPRING20', description: '3–40 letters, digits, - or _; stored upper case' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
  @Matches(/^[A-Z0-9_-]{3,40}$/, { message: 'The code must be 3 to 40 letters, digits, - or _.' })
  code!: string;

  @ApiProperty({ enum: ['percent', 'fixed'] })
  @IsIn(['percent', 'fixed'], { message: "kind must be 'percent' or 'fixed'" })
  kind!: CouponKind;

  @ApiPropertyOptional({ minimum: 1, maximum: 100 })
  @ValidateIf((o: CreateCouponDto) => o.kind === 'percent')
  @IsInt({ message: 'The percentage off must be a whole number from 1 to 100.' })
  @Min(1, { message: 'The percentage off must be a whole number from 1 to 100.' })
  @Max(100, { message: 'The percentage off must be a whole number from 1 to 100.' })
  percentOff?: number;

  @ApiPropertyOptional({ minimum: 1, description: 'Cents' })
  @ValidateIf((o: CreateCouponDto) => o.kind === 'fixed')
  @IsInt({ message: 'The amount off must be a whole number of cents, at least 1.' })
  @Min(1, { message: 'The amount off must be a whole number of cents, at least 1.' })
  @Max(100_000_000, { message: 'The amount off is too large.' })
  amountOffCents?: number;

  @ApiProperty({ enum: COUPONABLE_PLAN_IDS, isArray: true })
  @IsArray({ message: 'Choose at least one plan.' })
  @ArrayMinSize(1, { message: 'Choose at least one plan.' })
  @IsIn(COUPONABLE_PLAN_IDS, { each: true, message: `Plans must be among: ${COUPONABLE_PLAN_IDS.join(', ')}.` })
  planIds!: PlanId[];

  @ApiPropertyOptional({ minimum: 1, nullable: true, description: 'Subscriptions: the first N months; null or omitted: forever' })
  @IsOptional()
  @IsInt({ message: 'The number of months must be a whole number from 1 to 120.' })
  @Min(1, { message: 'The number of months must be a whole number from 1 to 120.' })
  @Max(120, { message: 'The number of months must be a whole number from 1 to 120.' })
  durationMonths?: number | null;

  @ApiPropertyOptional({ nullable: true, example: '2027-01-31T23:59:59Z' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'The expiry must be a date and time.' })
  expiresAt?: string | null;

  @ApiPropertyOptional({ minimum: 1, nullable: true })
  @IsOptional()
  @IsInt({ message: 'The maximum number of redemptions must be a whole number, at least 1.' })
  @Min(1, { message: 'The maximum number of redemptions must be a whole number, at least 1.' })
  @Max(10_000_000, { message: 'The maximum number of redemptions is too large.' })
  maxRedemptions?: number | null;

  @ApiPropertyOptional({ description: 'Offer it to members who cancel, off their next renewal once' })
  @IsOptional()
  @IsBoolean({ message: 'The save offer choice must be true or false.' })
  saveOffer?: boolean;
}
