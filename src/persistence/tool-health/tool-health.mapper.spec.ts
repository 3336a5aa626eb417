import fc from 'fast-check';
import { aDiagnosis, aHistoryItem, aToolHealthDocument } from '../../../test/factories';
import { STORED_EVENTS, withStoredEvents } from '../../domain/stored-events';
import { ToolHealthDocument, blankFields } from '../../domain/tool-health-document';
import { ToolErrorCode } from '../../domain/tool-error-code';
import { ToolStatus } from '../../domain/tool-status';
import { Scope } from '../../domain/scope';
import { ToolHealthRecord } from './tool-health.schema';
import { recordUpdate } from './record-update';
import {
  APPLIED_FLUSH_IDS_KEY,
  CASCADE_ENTRY_FIELDS,
  CascadeEntryRecord,
  documentUpdate,
  toCascadeEntry,
  toDomain,
  toRecord,
} from './tool-health.mapper';

const record = {
  ...toRecord(aToolHealthDocument({ scope: Scope.PROJECT, scopeId: 'p', toolName: 't', version: 3 })),
  appliedFlushIds: ['a.1', 'b.7'],
} as ToolHealthRecord;

describe('tool-health mapper: the flush ids of P42', () => {
  it('are not part of the domain object as JSON shows it', () => {
    const doc = toDomain(record);
    expect(JSON.parse(JSON.stringify(doc))).not.toHaveProperty('appliedFlushIds');
    expect(Object.keys(doc)).not.toContain('appliedFlushIds');
  });

  it("survive a reducer's spread and are written back by toRecord", () => {
    const reduced = { ...toDomain(record), version: 4 };
    expect(toRecord(reduced)).toMatchObject({ _id: 'PROJECT|p|t', version: 4, appliedFlushIds: ['a.1', 'b.7'] });
  });

  it('a document without any writes none', () => {
    const { appliedFlushIds: _ignored, ...plain } = record as ToolHealthRecord & { appliedFlushIds?: string[] };
    expect(toRecord(toDomain(plain as ToolHealthRecord))).not.toHaveProperty('appliedFlushIds');
  });
});

describe('tool-health mapper: a stored record read back (P362)', () => {
  // As the driver reads it: string keys only (toRecord's copy also carries the document's symbols).
  const stored = stringKeys(
    toRecord(
      withStoredEvents(
        aToolHealthDocument({
          status: ToolStatus.DOWN,
          code: ToolErrorCode.BACKEND_FAILED,
          lastDiagnosis: aDiagnosis({ note: 'n' }),
          history: [aHistoryItem({ note: 'h' })],
          description: 'd',
          version: 5,
        }),
        { life: 'l1', pendingEvents: [] },
      ),
    ),
  ) as unknown as ToolHealthRecord & Record<string, unknown>;
  const blankable = Object.keys(blankFields()) as (keyof ReturnType<typeof blankFields>)[];
  // What a stored record may be: any blankable field absent or null (stored before it existed),
  // fields a newer build wrote, flush ids, or no write-path fields at all.
  const variants = fc.record({
    absent: fc.subarray(blankable),
    nulled: fc.subarray(blankable),
    extra: fc.dictionary(fc.constantFrom('rolloutField', 'newerMarker', 'z'), fc.oneof(fc.integer(), fc.string(), fc.constant(null))),
    flushIds: fc.option(fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 3 }), { nil: undefined }),
    noEvents: fc.boolean(),
  });

  it('reads every field by its name, blanks for the missing ones, and keeps fields it does not know', () => {
    fc.assert(
      fc.property(variants, ({ absent, nulled, extra, flushIds, noEvents }) => {
        const record: Record<string, unknown> = { ...stored, ...extra };
        for (const field of nulled) record[field] = null;
        for (const field of absent) delete record[field];
        if (flushIds) record.appliedFlushIds = flushIds;
        if (noEvents) for (const field of ['life', 'pendingEvents']) delete record[field];

        const doc = toDomain(record as unknown as ToolHealthRecord);
        const { _id, life, pendingEvents, appliedFlushIds, ...fields } = record;
        expect(stringKeys(doc)).toEqual({ ...fields, ...blankFields(), ...pick(fields, (v) => v !== null && v !== undefined), id: _id });
        expect((doc as ToolHealthDocument & { [STORED_EVENTS]?: unknown })[STORED_EVENTS]).toEqual({
          life: life ?? '0',
          pendingEvents: pendingEvents ?? [],
        });
        expect((doc as ToolHealthDocument & { [APPLIED_FLUSH_IDS_KEY]?: string[] })[APPLIED_FLUSH_IDS_KEY]).toEqual(appliedFlushIds);
        // Written back, the record is what was read, with its blanks filled and its unknown fields kept.
        expect(stringKeys(toRecord(doc))).toEqual({
          ...record,
          ...blankFields(),
          ...pick(fields, (v) => v !== null && v !== undefined),
          life: life ?? '0',
          pendingEvents: pendingEvents ?? [],
        });
      }),
      { numRuns: 300 },
    );
  });

  it('takes its id from `_id`, whatever else a record holds', () => {
    expect(toDomain({ ...stored, id: 'not the key' } as unknown as ToolHealthRecord).id).toBe(stored._id);
  });

  it('gives every document its own blank lists', () => {
    const { history: _h, cooldowns: _c, ...bare } = stored;
    const [a, b] = [toDomain(bare as unknown as ToolHealthRecord), toDomain(bare as unknown as ToolHealthRecord)];
    expect(a.history).toEqual([]);
    expect(a.history).not.toBe(b.history);
    expect(a.cooldowns).not.toBe(b.cooldowns);
  });
});

function stringKeys(value: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value));
}

function pick(fields: Record<string, unknown>, keep: (value: unknown) => boolean): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => keep(value)));
}

describe('tool-health mapper: the manifest read’s entries (P116)', () => {
  const since = new Date('2026-05-23T14:00:00Z');
  const projected = {
    _id: 'GLOBAL|%00|t',
    scope: 'GLOBAL',
    scopeId: null,
    toolName: 't',
    status: 'DOWN',
    since,
  } as unknown as CascadeEntryRecord;

  it('read absent optional fields as null', () => {
    expect(toCascadeEntry(projected)).toEqual({
      id: 'GLOBAL|%00|t',
      scope: 'GLOBAL',
      scopeId: null,
      toolName: 't',
      status: 'DOWN',
      since,
      expectedRecoveryAt: null,
      code: null,
      lastFailureAt: null,
      lastDiagnosis: null,
      pin: null,
      description: null,
    });
  });

  it('hold what the whole document holds in those fields', () => {
    const stored = toRecord(
      aToolHealthDocument({
        status: ToolStatus.DOWN,
        since,
        expectedRecoveryAt: new Date('2026-05-23T15:00:00Z'),
        code: ToolErrorCode.BACKEND_FAILED,
        lastFailureAt: since,
        lastDiagnosis: aDiagnosis({ code: ToolErrorCode.BACKEND_FAILED, note: 'n', at: since }),
        description: 'd',
        version: 2,
      }),
    );
    const whole = toDomain(stored);
    const entry = toCascadeEntry(stored);
    for (const [field, value] of Object.entries(entry)) expect([field, whole[field as keyof typeof whole]]).toEqual([field, value]);
  });

  it('the projection names every field of an entry but its id', () => {
    expect([...CASCADE_ENTRY_FIELDS, 'id'].sort()).toEqual(Object.keys(toCascadeEntry(projected)).sort());
  });
});

describe('tool-health mapper: the update from one document to the next (P357)', () => {
  type Doc = ToolHealthDocument & { [STORED_EVENTS]?: unknown; [APPLIED_FLUSH_IDS_KEY]?: string[] };
  const history = Array.from({ length: 4 }, (_, i) => aHistoryItem({ note: `item ${i}` }));
  const events = { life: 'l1', pendingEvents: [] };
  // What a write may do to a document: each step a change reducers, the flush or the relay make.
  const steps: Record<string, (doc: Doc) => Doc> = {
    status: (d) => ({ ...d, status: ToolStatus.DOWN, code: ToolErrorCode.BACKEND_UNREACHABLE }),
    equalInstant: (d) => ({ ...d, since: new Date(d.since.getTime()) }),
    newInstant: (d) => ({ ...d, lastCheckedAt: new Date(d.since.getTime() + 1000) }),
    push: (d) => ({ ...d, history: [...d.history, aHistoryItem({ note: `new ${d.history.length}` })].slice(-3) }),
    rebuilt: (d) => ({ ...d, history: d.history.map((h) => ({ ...h })) }),
    cooldowns: (d) => ({ ...d, cooldowns: [] }),
    diagnosis: (d) => ({ ...d, lastDiagnosis: aDiagnosis({ note: 'seen' }) }),
    dropField: (d) => {
      const { description: _dropped, ...rest } = d;
      return rest as Doc;
    },
    version: (d) => ({ ...d, version: d.version + 1 }),
    events: (d) => withStoredEvents(d, { life: 'l1', pendingEvents: [] }) as Doc,
    newLife: (d) => withStoredEvents(d, { life: 'l2', pendingEvents: [] }) as Doc,
    noEvents: (d) => {
      const copy = { ...d };
      delete copy[STORED_EVENTS];
      return copy;
    },
    flushIds: (d) => ({ ...d, [APPLIED_FLUSH_IDS_KEY]: [...(d[APPLIED_FLUSH_IDS_KEY] ?? []), 'f.1'] }),
    noFlushIds: (d) => {
      const copy = { ...d };
      delete copy[APPLIED_FLUSH_IDS_KEY];
      return copy;
    },
  };
  const names = Object.keys(steps);
  const changes = fc.array(fc.constantFrom(...names), { maxLength: 6 });

  it('is the update between their records, for any changes from any document', () => {
    fc.assert(
      fc.property(changes, changes, (made, changed) => {
        const start: Doc = { ...aToolHealthDocument({ version: 3 }), history, [STORED_EVENTS]: events };
        const before = made.reduce((doc, step) => steps[step](doc), start);
        const after = changed.reduce((doc, step) => steps[step](doc), before);
        expect(documentUpdate(before, after)).toEqual(recordUpdate(toRecord(before), toRecord(after)));
      }),
      { numRuns: 500 },
    );
  });
});
