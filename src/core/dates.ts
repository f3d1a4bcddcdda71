import { SessionSearchError } from './errors.js';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Validates a YYYY-MM-DD calendar date (rejects 2025-02-30), or throws INVALID_DATE naming the parameter. */
export function checkDay(value: string | undefined, name: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  const m = DAY.exec(value);
  const date = m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])) : undefined;
  if (!m || !date || date.getUTCFullYear() !== +m[1] || date.getUTCMonth() !== +m[2] - 1 || date.getUTCDate() !== +m[3]) {
    throw new SessionSearchError('INVALID_DATE', `${name} must be a date in YYYY-MM-DD format, got "${value}".`);
  }
  return value;
}

export interface DayRange {
  from?: string;
  to?: string;
}

/** `date` pins one day; `dateFrom`/`dateTo` bound a range. A session matches when any of its days is inside. */
export function dayRange(options: { date?: string; dateFrom?: string; dateTo?: string }): DayRange {
  const date = checkDay(options.date, 'date');
  if (date) return { from: date, to: date };
  const from = checkDay(options.dateFrom, 'dateFrom');
  const to = checkDay(options.dateTo, 'dateTo');
  if (from && to && from > to) throw new SessionSearchError('INVALID_DATE', `dateFrom (${from}) is after dateTo (${to}).`);
  return { from, to };
}

export function overlaps(range: DayRange, firstDay: string, lastDay: string): boolean {
  return (!range.from || lastDay >= range.from) && (!range.to || firstDay <= range.to);
}
