/**
 * A recurring window's rule as people say it, and as the schedule form builds it: daily, weekly
 * on chosen days, or monthly on the first occurrence's day, every N of them. The API takes any
 * RFC 5545 RRULE; the form offers the three a maintenance calendar needs.
 */

export type Repeats = 'NEVER' | 'DAILY' | 'WEEKLY' | 'MONTHLY';

export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const DAY_NAMES: Record<Weekday, string> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
};

export function dayName(day: Weekday): string {
  return DAY_NAMES[day];
}

export interface RuleChoice {
  repeats: Repeats;
  /** Every `interval` days, weeks or months. */
  interval: number;
  /** For WEEKLY: the days; the first occurrence's day when none is chosen. */
  days: Weekday[];
  /** The first occurrence's wall date in the series' zone ("2026-12-12"): its weekday and day of month. */
  firstDate: string;
}

/** The weekday of a wall date ("2026-12-12" → "SA"). */
export function weekdayOf(wallDate: string): Weekday {
  return WEEKDAYS[(new Date(`${wallDate}T00:00:00Z`).getUTCDay() + 6) % 7];
}

/**
 * A series starts with an occurrence its rule gives (the API refuses any other first start): for a
 * weekly series on chosen days, the first chosen day on or after the typed date. Wall times
 * ("2026-12-05T18:00") in, wall times out, the hours kept.
 */
export function firstOccurrenceWall(
  choice: Pick<RuleChoice, 'repeats' | 'days'>,
  from: string,
  until: string,
): { from: string; until: string } {
  if (choice.repeats !== 'WEEKLY' || choice.days.length === 0) return { from, until };
  const start = WEEKDAYS.indexOf(weekdayOf(from.slice(0, 10)));
  const ahead = [0, 1, 2, 3, 4, 5, 6].find((n) => choice.days.includes(WEEKDAYS[(start + n) % 7]))!;
  const shift = (wall: string) => new Date(Date.parse(`${wall}:00Z`) + ahead * 86_400_000).toISOString().slice(0, 16);
  return { from: shift(from), until: shift(until) };
}

/** The RRULE value the choice means; null for a one-off window. */
export function buildRule(choice: RuleChoice): string | null {
  if (choice.repeats === 'NEVER') return null;
  const parts = [`FREQ=${choice.repeats}`];
  if (choice.interval > 1) parts.push(`INTERVAL=${choice.interval}`);
  if (choice.repeats === 'WEEKLY') {
    const days = choice.days.length ? WEEKDAYS.filter((d) => choice.days.includes(d)) : [weekdayOf(choice.firstDate)];
    parts.push(`BYDAY=${days.join(',')}`);
  }
  if (choice.repeats === 'MONTHLY') parts.push(`BYMONTHDAY=${Number(choice.firstDate.slice(8, 10))}`);
  return parts.join(';');
}

/** A series' rule in words, at its local times: "every Saturday 18:00–20:00 Europe/Berlin". */
export function ruleInWords(w: { recurrence: { rrule: string; timeZone: string } | null; from: string; until: string }): string {
  if (!w.recurrence) return '';
  const { rrule, timeZone } = w.recurrence;
  const parts = Object.fromEntries(rrule.split(';').map((p) => p.split('=') as [string, string]));
  const clock = (iso: string) =>
    new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
  const interval = Number(parts.INTERVAL ?? '1');
  const unit = { DAILY: 'day', WEEKLY: 'week', MONTHLY: 'month' }[parts.FREQ as string] ?? (parts.FREQ ?? '').toLowerCase();
  let when = interval > 1 ? `every ${interval} ${unit}s` : `every ${unit}`;
  if (parts.BYDAY) {
    const days = parts.BYDAY.split(',').map((d) => DAY_NAMES[d.replace(/^[-+]?\d+/, '') as Weekday] ?? d);
    when = interval > 1 ? `${when} on ${days.join(', ')}` : `every ${days.join(', ')}`;
  } else if (parts.BYMONTHDAY) when = `${when} on day ${parts.BYMONTHDAY}`;
  return `${when} ${clock(w.from)}–${clock(w.until)} ${timeZone}`;
}
