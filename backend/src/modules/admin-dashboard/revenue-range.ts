import { BadRequestException } from '@nestjs/common';

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const DEFAULT_MONTHS = 12;
/** Three years of months: a longer table stops being readable on one screen. */
const MAX_REVENUE_MONTHS = 36;

/** First days (UTC, YYYY-MM-DD) of the range's first and last month. */
export interface MonthRange {
  fromMonth: string;
  toMonth: string;
}

const monthIndex = (year: number, month: number) => year * 12 + month - 1;
const firstDay = (index: number) => `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}-01`;

function parseMonth(value: string, field: string): number {
  const match = MONTH.exec(value);
  if (!match) throw new BadRequestException(`${field} must be a month written YYYY-MM, such as 2025-01`);
  return monthIndex(Number(match[1]), Number(match[2]));
}

/**
 * The revenue report's months, both inclusive. Without them: the twelve months up to the last
 * one that has ended, since the month in progress has not yet seen its renewals.
 */
export function revenueRange(from: string | undefined, to: string | undefined, now = new Date()): MonthRange {
  const last = to ? parseMonth(to, 'to') : monthIndex(now.getUTCFullYear(), now.getUTCMonth() + 1) - 1;
  const first = from ? parseMonth(from, 'from') : last - (DEFAULT_MONTHS - 1);
  if (first > last) throw new BadRequestException('from must not be after to');
  if (last - first + 1 > MAX_REVENUE_MONTHS) throw new BadRequestException(`The range can be at most ${MAX_REVENUE_MONTHS} months`);
  return { fromMonth: firstDay(first), toMonth: firstDay(last) };
}
