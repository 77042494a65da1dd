import { Injectable } from '@nestjs/common';
import { CreateLeadResponse } from '@contracts/api-types';
import { CreateLeadDto } from './dto/create-lead.dto';
import { LeadBatchWriter } from './lead-batch-writer';

const blankToNull = (value: string | undefined): string | null => (value?.trim() ? value.trim() : null);

@Injectable()
export class LeadsService {
  constructor(private readonly writer: LeadBatchWriter) {}

  async create(dto: CreateLeadDto, attribution: Record<string, string>): Promise<CreateLeadResponse> {
    await this.writer.write({
      email: dto.email.trim(),
      name: blankToNull(dto.name),
      phone: blankToNull(dto.phone),
      referral: blankToNull(dto.referral),
      attribution,
    });
    return { received: true };
  }
}
