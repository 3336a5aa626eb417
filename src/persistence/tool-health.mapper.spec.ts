import { ToolHealthRecord } from './tool-health.schema';
import { toDomain, toRecord } from './tool-health.mapper';

const record = {
  _id: 'PROJECT|p|t',
  scope: 'PROJECT',
  scopeId: 'p',
  toolName: 't',
  status: 'OK',
  cooldowns: [],
  history: [],
  version: 3,
  appliedFlushIds: ['a.1', 'b.7'],
} as unknown as ToolHealthRecord;

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
