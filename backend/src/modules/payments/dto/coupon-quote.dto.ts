import { ApiProperty } from '@nestjs/swagger';
import { Text } from '../../../common/text-fields';

export class CouponQuoteQueryDto {
  @ApiProperty({ example: 'SPRING20', maxLength: 40 })
  @Text('code', 40)
  code: string;

  @ApiProperty({ example: 'standard', maxLength: 50 })
  @Text('plan', 50)
  plan: string;
}
