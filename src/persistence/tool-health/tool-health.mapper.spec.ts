import { aDiagnosis, aToolHealthDocument } from '../../../test/factories';
import { ToolErrorCode } from '../../domain/tool-error-code';
import { ToolStatus } from '../../domain/tool-status';
import { Scope } from '../../domain/scope';
import { ToolHealthRecord } from './tool-health.schema';
import { CASCADE_ENTRY_FIELDS, CascadeEntryRecord, toCascadeEntry, toDomain, toRecord } from './tool-health.mapper';

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
