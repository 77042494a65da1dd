import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsSafeText } from '../../../common/safe-text.validator';
import type { CheckoutParty } from '@contracts/payments';

const EMAIL_MESSAGE = 'Please enter a valid email address';

/** Text, at most `max` characters, no control characters; required unless `optional`. */
export function Text(field: string, max: number, optional = false): PropertyDecorator {
  const rules = [
    ...(optional ? [IsOptional()] : [IsNotEmpty({ message: `${field} is required` })]),
    IsString({ message: `${field} must be text` }),
    MaxLength(max, { message: `${field} must be at most ${max} characters` }),
    IsSafeText(field),
  ];
  return (target, key) => rules.forEach((rule) => rule(target, key));
}

export class CheckoutPartyDto implements CheckoutParty {
  @ApiProperty({ example: 'jane@example.com' })
  @IsEmail({}, { message: EMAIL_MESSAGE })
  @MaxLength(254, { message: EMAIL_MESSAGE })
  @IsSafeText('email')
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
}
