import fc from 'fast-check';
import { instantToJson } from './instant-json';

describe('instantToJson: what Date.prototype.toJSON gives', () => {
  it('gives what toJSON gives for every instant, across the whole range a Date holds', () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (time) => {
        const date = new Date(time);
        expect(instantToJson(date)).toBe(date.toJSON());
      }),
      { numRuns: 20_000 },
    );
  });

  it('gives what toJSON gives for the years 0000–9999, days and milliseconds alike', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (time) => {
        const date = new Date(time);
        expect(instantToJson(date)).toBe(date.toJSON());
      }),
      { numRuns: 50_000 },
    );
  });

  it.each([
    ['the epoch', 0],
    ['the last millisecond of a day', Date.UTC(2026, 11, 5, 23, 59, 59, 999)],
    ['the first millisecond of the next day', Date.UTC(2026, 11, 6)],
    ['a leap day', Date.UTC(2028, 1, 29, 12, 0, 0, 7)],
    ['the last instant of year 9999', 253_402_300_799_999],
    ['year 10000', 253_402_300_800_000],
    ['before the epoch', -1],
  ])('gives what toJSON gives for %s', (_, time) => {
    const date = new Date(time);
    expect(instantToJson(date)).toBe(date.toJSON());
  });

  it('gives null for an invalid Date, as toJSON does', () => {
    expect(instantToJson(new Date(Number.NaN))).toBeNull();
  });

  it('does not carry one day into the next when instants of two days alternate', () => {
    const days = [Date.UTC(2026, 0, 1, 10), Date.UTC(2026, 0, 2, 11), Date.UTC(2026, 0, 1, 12)];
    expect(days.map((t) => instantToJson(new Date(t)))).toEqual(days.map((t) => new Date(t).toJSON()));
  });

  it('gives each instant its own text when a few instants repeat among others (the remembered texts)', () => {
    const times = [0, 1, 999, Date.UTC(2026, 11, 7, 16), Date.UTC(2026, 11, 7, 16, 0, 0, 1), Date.UTC(1999, 0, 1), 253_402_300_799_999];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...times), { minLength: 1, maxLength: 40 }), (sequence) => {
        expect(sequence.map((t) => instantToJson(new Date(t)))).toEqual(sequence.map((t) => new Date(t).toJSON()));
      }),
      { numRuns: 2_000 },
    );
  });
});
