import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNumber, IsOptional, Max, Min } from 'class-validator';
import type { ConfirmSubscriptionRequest, CreatePaymentIntentRequest, CreateSetupIntentRequest } from '@contracts/payments';
import { Text } from '../../../common/text-fields';
import { CheckoutPartyDto } from './checkout-party.dto';

const AMOUNT_MESSAGE = 'amount must be a number of dollars';

export class CreateSetupIntentDto extends CheckoutPartyDto implements CreateSetupIntentRequest {
  @ApiPropertyOptional({ description: "A subscription plan's id (site.json); the default plan when omitted", example: 'standard' })
  @Text('planId', 50, true)
  planId?: string;

  @ApiPropertyOptional({ description: 'The buyer ticked the add-on (order bump): charged with the first payment at its catalogue price' })
  @IsOptional()
  @IsBoolean({ message: 'bump must be true or false' })
  bump?: boolean;
}

export class CreatePaymentIntentDto extends CheckoutPartyDto implements CreatePaymentIntentRequest {
  @ApiProperty({ description: 'Dollars; must equal the catalogue price of the plan', example: 997 })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: AMOUNT_MESSAGE })
  @Min(0, { message: AMOUNT_MESSAGE })
  @Max(1_000_000, { message: AMOUNT_MESSAGE })
  amount: number;

  @ApiProperty({ description: "The plan's display name", example: 'One-Time Plan' })
  @Text('plan', 100)
  plan: string;

  @ApiPropertyOptional({ description: "The buyer ticked the add-on (order bump); amount stays the plan's price, the server adds the add-on's" })
  @IsOptional()
  @IsBoolean({ message: 'bump must be true or false' })
  bump?: boolean;
}

export class ConfirmSubscriptionDto extends CheckoutPartyDto implements ConfirmSubscriptionRequest {
  @ApiProperty({ example: 'seti_1N…' })
  @Text('setupIntentId', 255)
  setupIntentId: string;

  @ApiProperty({ example: 97 })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: AMOUNT_MESSAGE })
  @Min(0, { message: AMOUNT_MESSAGE })
  @Max(1_000_000, { message: AMOUNT_MESSAGE })
  amount: number;

  @ApiProperty({ example: 'Monthly Plan' })
  @Text('plan', 100)
  plan: string;
}
