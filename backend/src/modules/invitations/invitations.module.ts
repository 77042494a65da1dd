import { Module } from '@nestjs/common';
import { InvitationBatchWriter } from './invitation-batch-writer';
import { InvitationsController } from './invitations.controller';
import { InvitationsService } from './invitations.service';
import { tokenCheckLimiter } from './token-check-limiter';

@Module({ controllers: [InvitationsController], providers: [InvitationsService, InvitationBatchWriter, tokenCheckLimiter] })
export class InvitationsModule {}
