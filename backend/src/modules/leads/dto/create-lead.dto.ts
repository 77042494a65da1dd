import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, ValidateNested } from 'class-validator';
import { EmailField, OptionalText } from '../../../common/text-fields';
import type { CreateLeadRequest, LeadAttribution } from '@contracts/api-types';

export class LeadAttributionDto implements LeadAttribution {
  @OptionalText('attribution.utm_source', 300) utm_source?: string;
  @OptionalText('attribution.utm_medium', 300) utm_medium?: string;
  @OptionalText('attribution.utm_campaign', 300) utm_campaign?: string;
  @OptionalText('attribution.utm_term', 300) utm_term?: string;
  @OptionalText('attribution.utm_content', 300) utm_content?: string;
  @OptionalText('attribution.gclid', 500) gclid?: string;
  @OptionalText('attribution.fbclid', 500) fbclid?: string;
  @OptionalText('attribution.landing_path', 500) landing_path?: string;
}

export class CreateLeadDto implements CreateLeadRequest {
  @ApiProperty({ example: 'jane@example.com' })
  @EmailField()
  email: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @OptionalText('name', 200)
  name?: string;

  @ApiPropertyOptional({ maxLength: 50 })
  @OptionalText('phone', 50)
  phone?: string;

  @ApiPropertyOptional({ description: 'Affiliate referral or tracking id', maxLength: 200 })
  @OptionalText('referral', 200)
  referral?: string;

  @ApiPropertyOptional({ type: LeadAttributionDto })
  @IsOptional()
  @IsObject({ message: 'attribution must be an object' })
  @ValidateNested()
  @Type(() => LeadAttributionDto)
  attribution?: LeadAttributionDto;
}
