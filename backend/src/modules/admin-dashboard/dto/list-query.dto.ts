import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { MEMBERSHIP_STATUSES, type MembershipStatus } from '@contracts/plans';
import { IsSafeText } from '../../../common/safe-text.validator';

export const MAX_PAGE_SIZE = 100;

/** ?page=&pageSize= for the audit log (and, with q, the lists). */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number' })
  @Min(1, { message: 'page must be 1 or more' })
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 25 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'pageSize must be a whole number' })
  @Min(1, { message: 'pageSize must be 1 or more' })
  @Max(MAX_PAGE_SIZE, { message: `pageSize must be at most ${MAX_PAGE_SIZE}` })
  pageSize?: number;
}

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
export class MemberStatusQueryDto {
  @ApiPropertyOptional({ enum: MEMBERSHIP_STATUSES })
  @IsOptional()
  @IsIn(MEMBERSHIP_STATUSES, { message: `status must be one of: ${MEMBERSHIP_STATUSES.join(', ')}` })
  status?: MembershipStatus;
}

export class MemberListQueryDto extends IntersectionType(ListQueryDto, MemberStatusQueryDto) {}
export class MemberExportQueryDto extends IntersectionType(ExportQueryDto, MemberStatusQueryDto) {}
