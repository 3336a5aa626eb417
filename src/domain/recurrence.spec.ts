import { DomainError } from './domain-error';
import { instantOfLocalWall, localWallMs } from './local-time';
import {
  MaintenancePhase,
  MaintenanceWindow,
  changeOccurrence,
  changeWindow,
  endSeries,
  expandWindows,
  maintenanceFor,
  occurrenceWindows,
  occurrencesWithin,
  phaseOf,
  scheduleWindow,
  seriesDueEvents,
  skipOccurrence,
} from './maintenance-window';
import { Scope } from './scope';
import { CallContext } from './tool-health-document';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const TOOL = 'jira_search';
const CTX: CallContext = { sessionId: 's1', userId: 'alice', projectId: 'p1', tenantId: 't1' };

function series(from: string, until: string, rrule: string, timeZone: string, now: string): MaintenanceWindow {
  return scheduleWindow(
    { scope: Scope.GLOBAL, toolName: TOOL, from: new Date(from), until: new Date(until), reason: 'Jira backup', rrule, timeZone },
    'S1',
    'admin:ops',
    new Date(now),
  );
}

const starts = (w: MaintenanceWindow, from: string, to: string) =>
  occurrenceWindows(w, new Date(from), new Date(to)).map((o) => [o.from.toISOString(), o.until.toISOString()]);

/** "HH:MM" in the zone, via Intl (not our own conversion). */
function localHHMM(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant);
}

function invalidField(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e.field ?? e.message;
    throw e;
  }
  return undefined;
}

describe('recurring maintenance (D25, P190)', () => {
  describe('weekly Saturday 18:00–20:00 local across both DST changes', () => {
    it('Europe/Berlin: 17:00Z in winter, 16:00Z in summer, always 18:00–20:00 local', () => {
      // 2026-03-21 is a Saturday in CET (UTC+1); CEST begins 2026-03-29, ends 2026-10-25.
      const w = series('2026-03-21T17:00:00Z', '2026-03-21T19:00:00Z', 'FREQ=WEEKLY;BYDAY=SA', 'Europe/Berlin', '2026-03-20T00:00:00Z');
      expect(starts(w, '2026-03-20T00:00:00Z', '2026-04-05T00:00:00Z')).toEqual([
        ['2026-03-21T17:00:00.000Z', '2026-03-21T19:00:00.000Z'],
        ['2026-03-28T17:00:00.000Z', '2026-03-28T19:00:00.000Z'],
        ['2026-04-04T16:00:00.000Z', '2026-04-04T18:00:00.000Z'],
      ]);
      expect(starts(w, '2026-10-23T00:00:00Z', '2026-11-01T00:00:00Z')).toEqual([
        ['2026-10-24T16:00:00.000Z', '2026-10-24T18:00:00.000Z'],
        ['2026-10-31T17:00:00.000Z', '2026-10-31T19:00:00.000Z'],
      ]);
      for (const o of occurrenceWindows(w, new Date('2026-03-20T00:00:00Z'), new Date('2027-01-01T00:00:00Z'))) {
        expect([localHHMM(o.from, 'Europe/Berlin'), localHHMM(o.until, 'Europe/Berlin')]).toEqual(['18:00', '20:00']);
      }
    });

    it('America/New_York: 23:00Z in winter, 22:00Z in summer, always 18:00–20:00 local', () => {
      // EDT begins 2026-03-08, ends 2026-11-01.
      const w = series('2026-02-28T23:00:00Z', '2026-03-01T01:00:00Z', 'FREQ=WEEKLY;BYDAY=SA', 'America/New_York', '2026-02-27T00:00:00Z');
      expect(starts(w, '2026-03-06T00:00:00Z', '2026-03-15T00:00:00Z')).toEqual([
        ['2026-03-07T23:00:00.000Z', '2026-03-08T01:00:00.000Z'],
        ['2026-03-14T22:00:00.000Z', '2026-03-15T00:00:00.000Z'],
      ]);
      expect(starts(w, '2026-10-30T00:00:00Z', '2026-11-08T00:00:00Z')).toEqual([
        ['2026-10-31T22:00:00.000Z', '2026-11-01T00:00:00.000Z'],
        ['2026-11-07T23:00:00.000Z', '2026-11-08T01:00:00.000Z'],
      ]);
      for (const o of occurrenceWindows(w, new Date('2026-02-27T00:00:00Z'), new Date('2027-01-01T00:00:00Z'))) {
        expect([localHHMM(o.from, 'America/New_York'), localHHMM(o.until, 'America/New_York')]).toEqual(['18:00', '20:00']);
      }
    });

    it('a call during the summer occurrence is governed by it; an hour after the winter slot in UTC it is not', () => {
      const w = series('2026-03-21T17:00:00Z', '2026-03-21T19:00:00Z', 'FREQ=WEEKLY;BYDAY=SA', 'Europe/Berlin', '2026-03-20T00:00:00Z');
      const now = new Date('2026-04-04T16:30:00Z'); // 18:30 CEST
      const view = maintenanceFor(expandWindows([w], new Date(now.getTime() - HOUR), new Date(now.getTime() + DAY)), TOOL, CTX, now, DAY);
      expect(view.inForce?.until.toISOString()).toBe('2026-04-04T18:00:00.000Z');
      expect(view.inForce?.seriesId).toBe('S1');
      const later = new Date('2026-04-04T18:30:00Z'); // 20:30 CEST: over (in winter it would still run)
      const after = maintenanceFor(
        expandWindows([w], new Date(later.getTime() - HOUR), new Date(later.getTime() + DAY)),
        TOOL,
        CTX,
        later,
        DAY,
      );
      expect(after.inForce).toBeNull();
      expect(phaseOf(w, now)).toBe(MaintenancePhase.IN_FORCE);
      expect(phaseOf(w, later)).toBe(MaintenancePhase.UPCOMING);
    });
  });

  it('local wall times: the spring gap reads with the offset before it, the repeated autumn hour is its first instant', () => {
    const wall = (iso: string) => Date.parse(`${iso}Z`);
    expect(instantOfLocalWall(wall('2026-03-29T02:30:00'), 'Europe/Berlin').toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(instantOfLocalWall(wall('2026-10-25T02:30:00'), 'Europe/Berlin').toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(instantOfLocalWall(wall('2026-07-01T12:00:00'), 'Asia/Kolkata').toISOString()).toBe('2026-07-01T06:30:00.000Z');
    expect(localWallMs(new Date('2026-07-01T06:30:00Z'), 'Asia/Kolkata')).toBe(wall('2026-07-01T12:00:00'));
  });

  describe('exceptions', () => {
    const created = '2026-03-01T00:00:00Z';
    const base = () => series('2026-03-07T17:00:00Z', '2026-03-07T19:00:00Z', 'FREQ=WEEKLY;BYDAY=SA', 'Europe/Berlin', created);

    it('a skipped occurrence is gone; the others stay', () => {
      const w = skipOccurrence(base(), new Date('2026-03-14T17:00:00Z'), 'admin:ops', new Date(created));
      expect(starts(w, '2026-03-06T00:00:00Z', '2026-03-22T00:00:00Z')).toEqual([
        ['2026-03-07T17:00:00.000Z', '2026-03-07T19:00:00.000Z'],
        ['2026-03-21T17:00:00.000Z', '2026-03-21T19:00:00.000Z'],
      ]);
      const during = new Date('2026-03-14T17:30:00Z');
      expect(
        maintenanceFor(expandWindows([w], new Date(during.getTime() - HOUR), new Date(during.getTime() + HOUR)), TOOL, CTX, during, HOUR)
          .inForce,
      ).toBeNull();
    });

    it('a changed occurrence runs at its own times and with its own reason', () => {
      const w = changeOccurrence(
        base(),
        new Date('2026-03-14T17:00:00Z'),
        { from: new Date('2026-03-14T18:00:00Z'), until: new Date('2026-03-14T22:00:00Z'), reason: 'longer backup' },
        'admin:ops',
        new Date(created),
      );
      const found = occurrenceWindows(w, new Date('2026-03-13T00:00:00Z'), new Date('2026-03-15T00:00:00Z'));
      expect(found.map((o) => [o.from.toISOString(), o.until.toISOString(), o.reason, o.occurrence?.toISOString()])).toEqual([
        ['2026-03-14T18:00:00.000Z', '2026-03-14T22:00:00.000Z', 'longer backup', '2026-03-14T17:00:00.000Z'],
      ]);
    });

    it('an occurrence that is not a start of the rule is a 400 naming occurrence', () => {
      expect(invalidField(() => skipOccurrence(base(), new Date('2026-03-15T17:00:00Z'), 'admin:ops', new Date(created)))).toBe(
        'occurrence',
      );
    });

    it('an occurrence more than 2 years ahead is a 400 naming occurrence (the rule is walked from its start)', () => {
      expect(invalidField(() => skipOccurrence(base(), new Date('7568-04-15T17:00:00Z'), 'admin:ops', new Date(created)))).toBe(
        'occurrence',
      );
    });

    it('an ended series has no occurrence starting at or after its end; it reads ENDED after its last', () => {
      const w = endSeries(base(), new Date('2026-03-20T00:00:00Z'), 'admin:ops', new Date(created));
      expect(starts(w, '2026-03-01T00:00:00Z', '2026-06-01T00:00:00Z')).toEqual([
        ['2026-03-07T17:00:00.000Z', '2026-03-07T19:00:00.000Z'],
        ['2026-03-14T17:00:00.000Z', '2026-03-14T19:00:00.000Z'],
      ]);
      expect(phaseOf(w, new Date('2026-03-14T20:00:00Z'))).toBe(MaintenancePhase.ENDED);
      expect(() => changeWindow(w, { reason: 'x' }, 'admin:ops', new Date('2026-03-15T00:00:00Z'))).toThrow(/ended/);
    });

    it('COUNT in the rule ends the series too', () => {
      const w = series('2026-03-07T17:00:00Z', '2026-03-07T19:00:00Z', 'FREQ=WEEKLY;COUNT=2', 'Europe/Berlin', created);
      expect(starts(w, '2026-03-01T00:00:00Z', '2026-06-01T00:00:00Z')).toHaveLength(2);
    });
  });

  describe('bad input is a 400 naming its field', () => {
    const at =
      (rrule: string, timeZone = 'Europe/Berlin', from = '2026-03-07T17:00:00Z') =>
      () =>
        series(from, new Date(Date.parse(from) + 2 * HOUR).toISOString(), rrule, timeZone, '2026-03-01T00:00:00Z');
    it.each([
      'FREQ=BOGUS',
      'garbage',
      'FREQ=WEEKLY;BYDAY=XX',
      'FREQ=WEEKLY;INTERVAL=-1',
      'FREQ=WEEKLY;INTERVAL=0',
      'FREQ=MINUTELY',
      'FREQ=DAILY;BYHOUR=3',
      'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
      'FREQ=WEEKLY;FREQ=DAILY',
      'FREQ=DAILY;COUNT=3;UNTIL=20270101',
      'FREQ=HOURLY',
      '',
    ])('rrule %j', (rrule) => {
      expect(invalidField(at(rrule))).toBe('rrule');
    });
    it('an unknown zone names timeZone', () => {
      expect(invalidField(at('FREQ=WEEKLY', 'Mars/Olympus_Mons'))).toBe('timeZone');
    });
    it('a start that is not an occurrence of the rule names from', () => {
      expect(invalidField(at('FREQ=WEEKLY;BYDAY=SU'))).toBe('from');
    });
    it('occurrences longer than the time between two starts name rrule', () => {
      expect(
        invalidField(() => series('2026-03-07T17:00:00Z', '2026-03-09T17:00:00Z', 'FREQ=DAILY', 'Europe/Berlin', '2026-03-01T00:00:00Z')),
      ).toBe('rrule');
    });
    it('a rule without a zone names timeZone', () => {
      expect(
        invalidField(() =>
          scheduleWindow(
            {
              scope: Scope.GLOBAL,
              toolName: TOOL,
              from: new Date('2026-03-07T17:00:00Z'),
              until: new Date('2026-03-07T19:00:00Z'),
              reason: 'r',
              rrule: 'FREQ=WEEKLY',
            },
            'S1',
            'admin:ops',
            new Date('2026-03-01T00:00:00Z'),
          ),
        ),
      ).toBe('timeZone');
    });
  });

  describe('events of a series (P192)', () => {
    const LEAD = 15 * MIN;
    const base = () =>
      series('2026-03-07T17:00:00Z', '2026-03-07T19:00:00Z', 'FREQ=WEEKLY;BYDAY=SA', 'Europe/Berlin', '2026-03-01T00:00:00Z');
    const tick = (w: MaintenanceWindow, iso: string) => {
      const due = seriesDueEvents(w, new Date(iso), LEAD);
      return {
        w: { ...w, eventsThrough: due.eventsThrough, eventMarks: due.eventMarks },
        kinds: due.events.map((e) => `${e.occurrence.id}:${e.kind}`),
        done: due.done,
      };
    };

    it('a warning within the lead time, a start, an end — each once per occurrence, however often it ticks', () => {
      let w = base();
      let t = tick(w, '2026-03-07T16:40:00Z');
      expect(t.kinds).toEqual([]);
      t = tick(w, '2026-03-07T16:46:00Z');
      expect(t.kinds).toEqual(['S1@20260307T170000Z:STARTING']);
      w = t.w;
      expect(tick(w, '2026-03-07T16:50:00Z').kinds).toEqual([]);
      t = tick(w, '2026-03-07T17:00:05Z');
      expect(t.kinds).toEqual(['S1@20260307T170000Z:STARTED']);
      w = t.w;
      expect(tick(w, '2026-03-07T18:00:00Z').kinds).toEqual([]);
      t = tick(w, '2026-03-07T19:00:01Z');
      expect(t.kinds).toEqual(['S1@20260307T170000Z:ENDED']);
      w = t.w;
      expect(w.eventMarks).toEqual([]);
      expect(tick(w, '2026-03-14T16:45:00Z').kinds).toEqual(['S1@20260314T170000Z:STARTING']);
    });

    it('a skipped occurrence owes nothing; a series cancelled in force ends with its occurrence and is done', () => {
      let w = skipOccurrence(base(), new Date('2026-03-07T17:00:00Z'), 'admin:ops', new Date('2026-03-01T00:00:00Z'));
      expect(tick(w, '2026-03-07T17:30:00Z').kinds).toEqual([]);
      w = base();
      w = tick(w, '2026-03-07T17:10:00Z').w;
      w = { ...w, cancelledAt: new Date('2026-03-07T17:20:00Z') };
      const t = tick(w, '2026-03-07T17:20:01Z');
      expect(t.kinds).toEqual(['S1@20260307T170000Z:ENDED']);
      expect(t.done).toBe(true);
    });
  });
});

describe('occurrencesWithin: what a calendar strip draws for a series', () => {
  const w = series('2026-03-21T17:00:00Z', '2026-03-21T19:00:00Z', 'FREQ=WEEKLY;BYDAY=SA', 'Europe/Berlin', '2026-03-20T00:00:00Z');
  const now = new Date('2026-03-20T00:00:00Z');
  const within = (x: MaintenanceWindow, days: number) =>
    occurrencesWithin(x, now, new Date(now.getTime() + days * DAY)).map((o) => [
      o.occurrence.toISOString(),
      o.from.toISOString(),
      o.reason,
    ]);

  it('lists each occurrence overlapping the span, by its rule start, at its own times', () => {
    expect(within(w, 16)).toEqual([
      ['2026-03-21T17:00:00.000Z', '2026-03-21T17:00:00.000Z', null],
      ['2026-03-28T17:00:00.000Z', '2026-03-28T17:00:00.000Z', null],
      ['2026-04-04T16:00:00.000Z', '2026-04-04T16:00:00.000Z', null],
    ]);
  });

  it('leaves out a skipped occurrence and shows a changed one where it was moved', () => {
    const skipped = skipOccurrence(w, new Date('2026-03-21T17:00:00Z'), 'admin:ops', now);
    const moved = changeOccurrence(
      skipped,
      new Date('2026-03-28T17:00:00Z'),
      { from: new Date('2026-03-28T15:00:00Z'), reason: 'earlier' },
      'admin:ops',
      now,
    );
    expect(within(moved, 16)).toEqual([
      ['2026-03-28T17:00:00.000Z', '2026-03-28T15:00:00.000Z', 'earlier'],
      ['2026-04-04T16:00:00.000Z', '2026-04-04T16:00:00.000Z', null],
    ]);
  });

  it('has none for a one-off window (it is its own bar)', () => {
    const oneOff = scheduleWindow(
      {
        scope: Scope.GLOBAL,
        toolName: TOOL,
        from: new Date('2026-03-21T17:00:00Z'),
        until: new Date('2026-03-21T19:00:00Z'),
        reason: 'once',
      },
      'W1',
      'admin:ops',
      now,
    );
    expect(within(oneOff, 16)).toEqual([]);
  });
});
