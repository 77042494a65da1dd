import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../../common/page-query.dto';
import { IsSafeText } from '../../../common/safe-text.validator';

/** ?q= of the orders screen: part of the e-mail or a whole order id. */
class BillingSearchDto {
  @ApiPropertyOptional({ description: 'Part of an e-mail address (case-insensitive), or an order id', maxLength: 254 })
  @IsOptional()
  @IsString({ message: 'q must be text' })
  @MaxLength(254, { message: 'q must be at most 254 characters' })
  @IsSafeText('q')
  q?: string;
}

/** ?q=&page=&pageSize= for the orders screen (the mapped type keeps both classes' validation). */
export class BillingQueryDto extends IntersectionType(PageQueryDto, BillingSearchDto) {}
