import { Module } from '@nestjs/common';
import { LeadsController } from './leads.controller';
import { LeadBatchWriter } from './lead-batch-writer';
import { LeadsService } from './leads.service';

@Module({ controllers: [LeadsController], providers: [LeadsService, LeadBatchWriter] })
export class LeadsModule {}
