import { Module } from '@nestjs/common';
import { InvitationBatchWriter } from './invitation-batch-writer';
import { InvitationsController } from './invitations.controller';
import { InvitationsService } from './invitations.service';
import { TokenCheckLimiter } from './token-check-limiter';

@Module({ controllers: [InvitationsController], providers: [InvitationsService, InvitationBatchWriter, TokenCheckLimiter] })
export class InvitationsModule {}
