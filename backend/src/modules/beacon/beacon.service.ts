import { Injectable } from '@nestjs/common';
import { FunnelEventRepository, type NewFunnelEvent } from '@core/database/repositories/funnel-event.repository';

@Injectable()
export class BeaconService {
  constructor(private readonly events: FunnelEventRepository) {}

  async record(event: NewFunnelEvent): Promise<void> {
    await this.events.insert(event);
  }
}
