import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsSafeText } from '../../../common/safe-text.validator';
import type { ErasePersonRequest } from '@contracts/admin';

/**
 * The address as typed: it is normalised before any lookup. Not checked as a valid e-mail, so
 * data stored under a malformed address can still be found and erased.
 */
export class PersonEmailDto implements ErasePersonRequest {
  @ApiProperty({ example: 'jane@example.com', maxLength: 254 })
  @IsDefined({ message: 'email is required' })
  @IsNotEmpty({ message: 'email is required' })
  @IsString({ message: 'email must be text' })
  @MaxLength(254, { message: 'email must be at most 254 characters' })
  @IsSafeText('email')
  email: string;
}
