import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { REVENUE_TABLES, type RevenueMode, type RevenueTable } from '@contracts/revenue';

const MODES: readonly RevenueMode[] = ['live', 'test'];

export class RevenueQueryDto {
  @ApiPropertyOptional({ description: 'First month, YYYY-MM (UTC). Default: 11 months before `to`' })
  @IsOptional()
  @IsString({ message: 'from must be a month written YYYY-MM' })
  @MaxLength(7, { message: 'from must be a month written YYYY-MM' })
  from?: string;

  @ApiPropertyOptional({ description: 'Last month, YYYY-MM (UTC), included. Default: the last month that has ended' })
  @IsOptional()
  @IsString({ message: 'to must be a month written YYYY-MM' })
  @MaxLength(7, { message: 'to must be a month written YYYY-MM' })
  to?: string;

  @ApiPropertyOptional({ enum: MODES, description: 'live (default): real money; test: the sandbox and Stripe test mode' })
  @IsOptional()
  @IsIn(MODES, { message: 'mode must be live or test' })
  mode?: RevenueMode;
}

/** ?table= names the table to export, with the report's range and mode. */
export class RevenueExportQueryDto extends RevenueQueryDto {
  @ApiProperty({ enum: REVENUE_TABLES })
  @IsDefined({ message: `table is required: one of ${REVENUE_TABLES.join(', ')}` })
  @IsIn(REVENUE_TABLES, { message: `table must be one of: ${REVENUE_TABLES.join(', ')}` })
  table: RevenueTable;
}
