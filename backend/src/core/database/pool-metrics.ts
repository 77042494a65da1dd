import { Gauge, type Registry } from 'prom-client';
import type { DataSource } from 'typeorm';

/** The pg pool behind TypeORM, as far as its counts go. */
interface PgPoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** funnel_db_pool_connections{state}: this process's Postgres connections open, idle, and callers waiting for one, read at scrape time. */
export function registerPoolGauge(registry: Registry, dataSource: DataSource): void {
  new Gauge({
    name: 'funnel_db_pool_connections',
    help: "This process's Postgres pool: connections open, idle, and callers waiting for one",
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = (dataSource.driver as unknown as { master?: PgPoolCounts }).master;
      if (!pool) return;
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
}
