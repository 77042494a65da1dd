import { BadRequestException } from '@nestjs/common';

const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 7;
const MAX_DAYS = 366;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export interface ReportRange {
  from: Date;
  /** Exclusive. */
  to: Date;
}

function parseBound(value: string, field: string, endOfDay: boolean): Date {
  const date = new Date(DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(date.getTime())) throw new BadRequestException(`${field} must be a date (YYYY-MM-DD) or an ISO date-time`);
  // A date names a whole UTC day, so "to=2025-01-31" includes the 31st.
  return endOfDay && DATE_ONLY.test(value) ? new Date(date.getTime() + DAY_MS) : date;
}

/**
 * The dashboard's range: `from` inclusive, `to` inclusive when a date (its whole UTC day) and
 * exclusive when a date-time. Without them, the last seven days up to now.
 */
export function reportRange(from: string | undefined, to: string | undefined, now = new Date()): ReportRange {
  const end = to ? parseBound(to, 'to', true) : now;
  const start = from ? parseBound(from, 'from', false) : new Date(end.getTime() - DEFAULT_DAYS * DAY_MS);
  if (start >= end) throw new BadRequestException('from must be before to');
  if (end.getTime() - start.getTime() > MAX_DAYS * DAY_MS) throw new BadRequestException(`The range can be at most ${MAX_DAYS} days`);
  return { from: start, to: end };
}
