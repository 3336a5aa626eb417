/**
 * What `date.toJSON()` gives — the ISO text `JSON.stringify` writes for an instant
 * (`2026-05-23T14:30:00.000Z`), or null for an invalid Date — in a tenth of the time. V8's
 * `toISOString` costs ~0.4 µs, and an entry's answer holds an instant per history item and five
 * more: for a bulk write's 200 entries of 20 items each, ~5 000 of them, formatting them was two
 * thirds of the answer's JSON (docs/performance.md, P353).
 *
 * The day part (`2026-05-23T`) is remembered for the last day formatted, since the instants of one
 * answer mostly share a day; the time of day is plain arithmetic. Years outside 0000–9999, which
 * `toISOString` writes with a sign and six digits, take the built-in path.
 *
 * The texts of the last few instants are remembered too, by their time: the entries of one bulk
 * write share the write's instant (checked, updated, the diagnosis's) and often their creation, so
 * a 200-tool answer asks for the same few instants ~1 000 times, and each text made afresh was ~5 %
 * of what the bulk write allocated (P373).
 */
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00Z: the first instant whose year takes six digits. */
const YEAR_10000 = 253_402_300_800_000;

let cachedDay = Number.NaN;
let cachedDayPrefix = '';

/** How many recent instants' texts are remembered: the few one answer repeats, checked one by one. */
const RECENT = 4;
const recentTimes: number[] = new Array<number>(RECENT).fill(Number.NaN);
const recentTexts: string[] = new Array<string>(RECENT).fill('');
let nextRecent = 0;

export function instantToJson(date: Date): string | null {
  const time = date.getTime();
  if (!(time >= 0 && time < YEAR_10000)) return Number.isNaN(time) ? null : date.toISOString();
  for (let i = 0; i < RECENT; i++) if (recentTimes[i] === time) return recentTexts[i];
  const text = formatted(time);
  recentTimes[nextRecent] = time;
  recentTexts[nextRecent] = text;
  nextRecent = (nextRecent + 1) % RECENT;
  return text;
}

/** The text of an instant in the years 0000–9999. */
function formatted(time: number): string {
  const day = Math.floor(time / DAY_MS);
  if (day !== cachedDay) {
    cachedDayPrefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    cachedDay = day;
  }
  let rest = time - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${cachedDayPrefix}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[rest - seconds * 1000]}Z`;
}
