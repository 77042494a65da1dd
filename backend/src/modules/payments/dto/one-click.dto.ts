import { ApiProperty } from '@nestjs/swagger';
import type { OneClickPurchaseRequest } from '@contracts/payments';
import { EmailField, Text } from '../../../common/text-fields';
import { CheckoutPartyDto } from './checkout-party.dto';

/** GET /api/one-click?planId=&email=: the plan the checkout shows, and its buyer's address. */
export class OneClickOfferQueryDto {
  @ApiProperty({ example: '2-month' })
  @Text('planId', 50)
  planId: string;

  @ApiProperty({ example: 'jane@example.com' })
  @EmailField()
  email: string;
}

export class OneClickPurchaseDto extends CheckoutPartyDto implements OneClickPurchaseRequest {
  @ApiProperty({ description: 'The plan to buy with the saved card (a one-time plan)', example: '2-month' })
  @Text('planId', 50)
  planId: string;
}
