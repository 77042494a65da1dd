import { Module } from '@nestjs/common';
import { InvitationsController } from './invitations.controller';
import { InvitationsService } from './invitations.service';
import { TokenCheckLimiter } from './token-check-limiter';

@Module({ controllers: [InvitationsController], providers: [InvitationsService, TokenCheckLimiter] })
export class InvitationsModule {}
