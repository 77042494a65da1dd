import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { FunnelEventRow } from './beacon-request';

@Injectable()
export class BeaconService {
  constructor(private readonly dataSource: DataSource) {}

  async record(event: FunnelEventRow): Promise<void> {
    await this.dataSource.query(`INSERT INTO funnel_events (type, visitor_id, path, plan_id, referral) VALUES ($1, $2, $3, $4, $5)`, [
      event.type,
      event.visitorId,
      event.path,
      event.planId,
      event.referral,
    ]);
  }
}
