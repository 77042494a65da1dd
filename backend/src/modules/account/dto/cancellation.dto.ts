import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import {
  CANCEL_DETAIL_MAX,
  CANCEL_REASONS,
  type CancellationAnswer,
  type CancelReason,
  PAUSE_MONTHS,
  type PauseMonths,
  type PauseRequest,
  type SaveOfferRequest,
} from '@contracts/cancellation';
import { OptionalText } from '../../../common/text-fields';
import { AccountOrderDto } from './account-order.dto';

const REASON_MESSAGE = `reason must be one of: ${CANCEL_REASONS.join(', ')}`;

/** POST /api/account/cancel: the survey's answer is optional, so cancelling stays one click from the survey. */
export class CancelMembershipDto extends AccountOrderDto implements CancellationAnswer {
  @ApiPropertyOptional({ enum: CANCEL_REASONS })
  @IsOptional()
  @IsIn(CANCEL_REASONS, { message: REASON_MESSAGE })
  reason?: CancelReason;

  @ApiPropertyOptional({ maxLength: CANCEL_DETAIL_MAX, description: "The member's own words (reason 'other')" })
  @OptionalText('detail', CANCEL_DETAIL_MAX)
  detail?: string;
}

/** An offer taken: the reason it answered is required. */
export class SaveOfferDto extends AccountOrderDto implements SaveOfferRequest {
  @ApiProperty({ enum: CANCEL_REASONS })
  @IsIn(CANCEL_REASONS, { message: REASON_MESSAGE })
  reason: CancelReason;

  @ApiPropertyOptional({ maxLength: CANCEL_DETAIL_MAX, description: "The member's own words (reason 'other')" })
  @OptionalText('detail', CANCEL_DETAIL_MAX)
  detail?: string;
}

export class PauseMembershipDto extends SaveOfferDto implements PauseRequest {
  @ApiProperty({ enum: PAUSE_MONTHS })
  @IsIn(PAUSE_MONTHS, { message: 'months must be 1, 2 or 3' })
  months: PauseMonths;
}
