import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, ValidateBy } from 'class-validator';
import { IsSafeText } from '../../../common/safe-text.validator';
import { EmailField, OptionalText } from '../../../common/text-fields';
import { INVITATION_NAME_MIN_LENGTH, type InvitationGateRequest } from '@contracts/invitations';

const NAME_MESSAGE = 'Please enter your full name';

/** At least `min` characters besides surrounding spaces: "  J " is not a full name. */
function MinTrimmedLength(min: number, message: string): PropertyDecorator {
  return ValidateBy({
    name: 'minTrimmedLength',
    validator: { validate: (value: unknown) => typeof value === 'string' && value.trim().length >= min, defaultMessage: () => message },
  });
}

export class InvitationGateDto implements InvitationGateRequest {
  @ApiProperty({ minLength: INVITATION_NAME_MIN_LENGTH, maxLength: 200, example: 'Jane Doe' })
  @IsString({ message: NAME_MESSAGE })
  @MinTrimmedLength(INVITATION_NAME_MIN_LENGTH, NAME_MESSAGE)
  @MaxLength(200, { message: 'name must be at most 200 characters' })
  @IsSafeText('name')
  name: string;

  @ApiProperty({ example: 'jane@example.com' })
  @EmailField()
  email: string;

  @ApiPropertyOptional({ maxLength: 50, description: 'Free text, no format rule' })
  @OptionalText('phone', 50)
  phone?: string;

  @ApiPropertyOptional({ maxLength: 200, description: 'Who invited them, free text' })
  @OptionalText('invitedBy', 200)
  invitedBy?: string;

  @ApiPropertyOptional({ description: 'Affiliate referral or tracking id', maxLength: 200 })
  @OptionalText('referral', 200)
  referral?: string;
}
