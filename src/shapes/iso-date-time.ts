import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsDate } from 'class-validator';

// RFC 3339 date-time, the OpenAPI `format: date-time`: 2026-05-23T14:30:00Z, …T14:30:00.123+02:00.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|([+-])(\d{2}):(\d{2}))$/i;

/**
 * The Date an RFC 3339 date-time string denotes, or null for anything else: another type (a
 * number or boolean would otherwise become an instant of 1970), another layout, or a calendar
 * impossibility that `new Date` silently rolls over (2026-02-30 → March 2).
 */
export function parseRfc3339(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const m = RFC3339.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const offsetHours = m[8] === undefined ? 0 : Number(m[8]);
  const offsetMinutes = m[9] === undefined ? 0 : Number(m[9]);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return null;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A request field holding an RFC 3339 date-time string, turned into a Date; anything else is a
 * 400 naming the field. Use instead of `@Type(() => Date) @IsDate()`, which accepts `false`, `0`
 * or `"5"` as instants. Combine with `@IsOptional()` for an optional field.
 */
export function IsIsoDateTime(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }) => (value === undefined || value === null ? value : (parseRfc3339(value) ?? value)), { toClassOnly: true }),
    IsDate({ message: ({ property }) => `${property} must be an RFC 3339 date-time string, e.g. 2026-05-23T14:30:00Z` }),
  );
}
