import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EmailField, Text } from '../../../common/text-fields';
import type { CheckoutParty } from '@contracts/payments';

export class CheckoutPartyDto implements CheckoutParty {
  @ApiProperty({ example: 'jane@example.com' })
  @EmailField()
  email: string;

  @ApiProperty({ maxLength: 200 })
  @Text('name', 200)
  name: string;

  @ApiProperty({ description: "The funnel the buyer came through: the programme's short name, or 'blackcard'", maxLength: 50 })
  @Text('source', 50)
  source: string;

  @ApiPropertyOptional({ description: 'Invite token of the invite funnel; only its hash is stored', maxLength: 200 })
  @Text('blackcard_token', 200, true)
  blackcard_token?: string;

  @ApiPropertyOptional({ description: 'Affiliate referral or tracking id', maxLength: 200 })
  @Text('referral', 200, true)
  referral?: string;

  @ApiPropertyOptional({ description: 'A coupon code; an unusable one is refused with a message (400)', maxLength: 40 })
  @Text('coupon', 40, true)
  coupon?: string;
}
