import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEmail, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import type { CreateLeadRequest, LeadAttribution } from '../../../shared/contracts/api-types';

const EMAIL_MESSAGE = 'Please enter a valid email address';
const text = (field: string, max: number) => ({ message: `${field} must be at most ${max} characters` });

export class LeadAttributionDto implements LeadAttribution {
  @IsOptional() @IsString() @MaxLength(300, text('utm_source', 300)) utm_source?: string;
  @IsOptional() @IsString() @MaxLength(300, text('utm_medium', 300)) utm_medium?: string;
  @IsOptional() @IsString() @MaxLength(300, text('utm_campaign', 300)) utm_campaign?: string;
  @IsOptional() @IsString() @MaxLength(300, text('utm_term', 300)) utm_term?: string;
  @IsOptional() @IsString() @MaxLength(300, text('utm_content', 300)) utm_content?: string;
  @IsOptional() @IsString() @MaxLength(500, text('gclid', 500)) gclid?: string;
  @IsOptional() @IsString() @MaxLength(500, text('fbclid', 500)) fbclid?: string;
  @IsOptional() @IsString() @MaxLength(500, text('landing_path', 500)) landing_path?: string;
}

export class CreateLeadDto implements CreateLeadRequest {
  @ApiProperty({ example: 'jane@example.com' })
  @IsEmail({}, { message: EMAIL_MESSAGE })
  @MaxLength(254, { message: EMAIL_MESSAGE })
  email: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional() @IsString({ message: 'name must be text' }) @MaxLength(200, text('name', 200))
  name?: string;

  @ApiPropertyOptional({ maxLength: 50 })
  @IsOptional() @IsString({ message: 'phone must be text' }) @MaxLength(50, text('phone', 50))
  phone?: string;

  @ApiPropertyOptional({ description: 'Affiliate referral or tracking id', maxLength: 200 })
  @IsOptional() @IsString({ message: 'referral must be text' }) @MaxLength(200, text('referral', 200))
  referral?: string;

  @ApiPropertyOptional({ type: LeadAttributionDto })
  @IsOptional() @IsObject({ message: 'attribution must be an object' })
  @ValidateNested() @Type(() => LeadAttributionDto)
  attribution?: LeadAttributionDto;
}
