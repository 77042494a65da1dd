import { ApiProperty } from '@nestjs/swagger';
import { Text } from '../../../common/text-fields';
import type { AccountSessionRequest } from '@contracts/account';

export class AccountSessionDto implements AccountSessionRequest {
  @ApiProperty({ description: 'The token of the e-mailed sign-in link', example: 'q2V…43 characters' })
  @Text('token', 200)
  token: string;
}
