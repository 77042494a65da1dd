import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmptyObject, IsObject, Max, Min, ValidateNested } from 'class-validator';
import { SANDBOX_CLOCK_MAX_DAYS } from '@contracts/payments';
import type {
  SandboxCard,
  SandboxClockRequest,
  SandboxConfirmRequest,
  SandboxDisputeEvidence,
  SandboxDisputeEvidenceRequest,
  SandboxNextActionRequest,
} from '@contracts/payments';
import { Text } from '../../../common/text-fields';

export class SandboxCardDto implements SandboxCard {
  @ApiProperty({ example: '4242 4242 4242 4242' }) @Text('card.number', 30) number: string;
  @ApiProperty({ example: 12 }) @IsInt({ message: 'card.expMonth must be a whole number' }) expMonth: number;
  @ApiProperty({ example: 2034 }) @IsInt({ message: 'card.expYear must be a whole number' }) expYear: number;
  @ApiProperty({ example: '123' }) @Text('card.cvc', 4) cvc: string;
  @ApiPropertyOptional() @Text('card.postalCode', 20, true) postalCode?: string;
}

export class SandboxConfirmDto implements SandboxConfirmRequest {
  @ApiProperty() @Text('clientSecret', 200) clientSecret: string;

  @ApiProperty({ type: SandboxCardDto })
  @IsObject({ message: 'card must be an object' })
  @IsNotEmptyObject({}, { message: 'card is required' })
  @ValidateNested()
  @Type(() => SandboxCardDto)
  card: SandboxCardDto;

  @ApiProperty({ example: 'http://localhost:3000/success' }) @Text('returnUrl', 2000) returnUrl: string;
}

export class SandboxNextActionDto implements SandboxNextActionRequest {
  @ApiProperty() @Text('clientSecret', 200) clientSecret: string;
  @ApiProperty({ example: 'http://localhost:3000/success' }) @Text('returnUrl', 2000) returnUrl: string;
}

/** The authentication page's form (application/x-www-form-urlencoded). */
export class SandboxAuthenticateDto {
  @Text('client_secret', 200) client_secret: string;
  @Text('return_url', 2000) return_url: string;
  @IsIn(['complete', 'fail'], { message: 'outcome must be complete or fail' }) outcome: 'complete' | 'fail';
}

/** POST /api/sandbox/clock: whole days, at least one, at most a year and a day per call. */
export class SandboxClockDto implements SandboxClockRequest {
  @ApiProperty({ example: 30 })
  @IsInt({ message: 'advanceDays must be a whole number of days' })
  @Min(1, { message: 'advanceDays must be at least 1' })
  @Max(SANDBOX_CLOCK_MAX_DAYS, { message: `advanceDays must be at most ${SANDBOX_CLOCK_MAX_DAYS}` })
  advanceDays: number;
}

/** POST /api/sandbox/disputes/:id/evidence: one of Stripe's two test evidence words. */
export class SandboxDisputeEvidenceDto implements SandboxDisputeEvidenceRequest {
  @ApiProperty({ enum: ['winning_evidence', 'losing_evidence'], example: 'winning_evidence' })
  @IsIn(['winning_evidence', 'losing_evidence'], { message: 'evidence must be winning_evidence or losing_evidence' })
  evidence: SandboxDisputeEvidence;
}
