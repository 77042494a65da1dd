import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export class FunnelQueryDto {
  @ApiPropertyOptional({ description: 'Start, inclusive: YYYY-MM-DD (UTC day) or ISO date-time. Default: 7 days before `to`' })
  @IsOptional()
  @IsString({ message: 'from must be a date' })
  @MaxLength(40, { message: 'from must be a date' })
  from?: string;

  @ApiPropertyOptional({ description: 'End: YYYY-MM-DD includes that UTC day; an ISO date-time is exclusive. Default: now' })
  @IsOptional()
  @IsString({ message: 'to must be a date' })
  @MaxLength(40, { message: 'to must be a date' })
  to?: string;
}
