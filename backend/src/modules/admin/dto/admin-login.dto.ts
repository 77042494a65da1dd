import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsSafeText } from '../../../common/safe-text.validator';
import type { AdminLoginRequest } from '@contracts/admin';

export class AdminLoginDto implements AdminLoginRequest {
  @ApiProperty({ example: 'admin@example.com' })
  @IsDefined({ message: 'Please enter your email address' })
  @IsString({ message: 'email must be text' })
  @IsNotEmpty({ message: 'Please enter your email address' })
  @MaxLength(254, { message: 'email must be at most 254 characters' })
  @IsSafeText('email')
  email: string;

  @ApiProperty({ format: 'password' })
  @IsDefined({ message: 'Please enter your password' })
  @IsString({ message: 'password must be text' })
  @IsNotEmpty({ message: 'Please enter your password' })
  @MaxLength(1024, { message: 'password must be at most 1024 characters' })
  password: string;
}
