import { ApiProperty } from '@nestjs/swagger';
import { EmailField } from '../../../common/text-fields';
import type { AccountLinkRequest } from '@contracts/account';

export class AccountLinkDto implements AccountLinkRequest {
  @ApiProperty({ example: 'jane@example.com' })
  @EmailField()
  email: string;
}
