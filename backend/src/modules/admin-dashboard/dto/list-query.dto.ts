import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { MEMBERSHIP_STATUSES, type MembershipStatus } from '@contracts/plans';
import { PageQueryDto } from '../../../common/page-query.dto';
import { IsSafeText } from '../../../common/safe-text.validator';

/** ?q= for the CSV exports: every matching row, no paging. q matches part of the normalised e-mail. */
export class ExportQueryDto {
  @ApiPropertyOptional({ description: 'Part of an e-mail address (case-insensitive)', maxLength: 254 })
  @IsOptional()
  @IsString({ message: 'q must be text' })
  @MaxLength(254, { message: 'q must be at most 254 characters' })
  @IsSafeText('q')
  q?: string;
}

/** ?q=&page=&pageSize= for the admin lists (the mapped type keeps both classes' validation). */
export class ListQueryDto extends IntersectionType(PageQueryDto, ExportQueryDto) {}

/** ?status= narrows the members list and export to one membership status. */
class MemberStatusQueryDto {
  @ApiPropertyOptional({ enum: MEMBERSHIP_STATUSES })
  @IsOptional()
  @IsIn(MEMBERSHIP_STATUSES, { message: `status must be one of: ${MEMBERSHIP_STATUSES.join(', ')}` })
  status?: MembershipStatus;
}

export class MemberListQueryDto extends IntersectionType(ListQueryDto, MemberStatusQueryDto) {}
export class MemberExportQueryDto extends IntersectionType(ExportQueryDto, MemberStatusQueryDto) {}
