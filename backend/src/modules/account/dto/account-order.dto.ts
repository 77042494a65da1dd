import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import type { AccountOrderRequest, ApplyCardUpdateRequest } from '@contracts/account';
import { Text } from '../../../common/text-fields';

export class AccountOrderDto implements AccountOrderRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'orderId must be the id of one of your memberships' })
  orderId: string;
}

export class ApplyCardUpdateDto extends AccountOrderDto implements ApplyCardUpdateRequest {
  @ApiProperty({ description: 'The card setup confirmed in the browser' })
  @Text('setupIntentId', 100)
  setupIntentId: string;
}
