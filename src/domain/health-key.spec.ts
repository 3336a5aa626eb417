import fc from 'fast-check';
import { DomainError, DomainErrorCode } from './domain-error';
import {
  cascadeKeyIds,
  cascadeKeys,
  cascadeScopes,
  decodeKey,
  describeKey,
  encodeKey,
  ID_PATTERN,
  keyInScope,
  prefixOfId,
  scopePrefix,
  validateContext,
  validateKey,
} from './health-key';
import { Scope } from './scope';
import { CallContext, HealthKey } from './tool-health-document';

/** Strings built from the escape alphabet, so '%7C', '%25', '%00', '|' and their overlaps occur often. */
const escapeHeavy = fc.string({ unit: fc.constantFrom('|', '%', '0', '2', '5', '7', 'C', 'c', 'a'), maxLength: 12 });
const literals = fc.constantFrom('', '|', '%', '%00', '%7C', '%7c', '%25', '%2500', '|%', '%|', '||', '%%', '%257C', 'a|b', 'null');
const anyString = fc.oneof(literals, escapeHeavy, fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }));
const scopeArb = fc.constantFrom(...Object.values(Scope));
/** encodeKey claims to be injective for any strings, so the scope is fuzzed too (cast like decodeKey does). */
const scopeOrAny = fc.oneof(
  scopeArb,
  anyString.map((s) => s as Scope),
);
const keyArb: fc.Arbitrary<HealthKey> = fc.record({
  scope: scopeOrAny,
  scopeId: fc.option(anyString, { nil: null, freq: 3 }),
  toolName: anyString,
});

function errorOf(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError, nothing was thrown');
}

describe('encodeKey / decodeKey (D3a)', () => {
  it.each<[string, HealthKey]>([
    ['GLOBAL with null scopeId', { scope: Scope.GLOBAL, scopeId: null, toolName: 'jira' }],
    ['scopeId spelled like the null marker', { scope: Scope.USER, scopeId: '%00', toolName: 'jira' }],
    ['separator in every part', { scope: 'A|B' as Scope, scopeId: 'x|y', toolName: '|' }],
    ['escaped separator literally', { scope: Scope.PROJECT, scopeId: '%7C', toolName: '%25' }],
    ['empty strings', { scope: Scope.SESSION, scopeId: '', toolName: '' }],
  ])('round-trips %s', (_label, key) => {
    expect(decodeKey(encodeKey(key))).toEqual(key);
  });

  it('spells null and the string "%00" differently', () => {
    const nullId = encodeKey({ scope: Scope.USER, scopeId: null, toolName: 't' });
    const literalId = encodeKey({ scope: Scope.USER, scopeId: '%00', toolName: 't' });
    expect(nullId).not.toBe(literalId);
  });

  it('produces exactly two separators whatever the parts contain', () => {
    expect(encodeKey({ scope: Scope.USER, scopeId: 'a|b|c', toolName: '||' }).split('|')).toHaveLength(3);
  });

  it.each(['', 'a|b', 'a|b|c|d', 'no-separator'])('decodeKey rejects %j as not an encoded key', (id) => {
    const error = errorOf(() => decodeKey(id));
    expect(error.code).toBe(DomainErrorCode.INVALID_ARGUMENT);
    expect(error.field).toBe('id');
  });

  it('prefixOfId gives back the scope prefix of any encoded key (property)', () => {
    fc.assert(
      fc.property(keyArb, (key) => {
        expect(prefixOfId(encodeKey(key))).toBe(scopePrefix(key.scope, key.scopeId));
      }),
      { numRuns: 2000 },
    );
  });

  it('a name of the D3a character set is its own encoding: the manifest read builds `_id`s from listed names (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(ID_PATTERN), (name) => {
        expect(keyInScope('GLOBAL|%00', name)).toBe(`GLOBAL|%00|${name}`);
      }),
      { numRuns: 500 },
    );
    expect(keyInScope('GLOBAL|%00', 'mcp:search/files.read@host_1-x')).toBe('GLOBAL|%00|mcp:search/files.read@host_1-x');
  });

  it('round-trips arbitrary keys (property)', () => {
    fc.assert(
      fc.property(keyArb, (key) => {
        expect(decodeKey(encodeKey(key))).toEqual(key);
      }),
      { numRuns: 2000 },
    );
  });

  it('never encodes two different keys to the same id (property over pairs)', () => {
    fc.assert(
      fc.property(keyArb, keyArb, (a, b) => {
        const same = a.scope === b.scope && a.scopeId === b.scopeId && a.toolName === b.toolName;
        expect(encodeKey(a) === encodeKey(b)).toBe(same);
      }),
      { numRuns: 5000 },
    );
  });

  it('never encodes keys that differ in one part only to the same id (property)', () => {
    fc.assert(
      fc.property(keyArb, fc.constantFrom('scope', 'scopeId', 'toolName'), anyString, fc.boolean(), (key, part, other, useNull) => {
        const changed: HealthKey = { ...key };
        if (part === 'scopeId') changed.scopeId = useNull && key.scopeId !== null ? null : other;
        else changed[part] = other as Scope;
        fc.pre(changed[part] !== key[part]);
        expect(encodeKey(changed)).not.toBe(encodeKey(key));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('scopePrefix / keyInScope (P81 presence lists)', () => {
  it('rebuilds exactly the encoded key, and the prefix starts it', () => {
    fc.assert(
      fc.property(keyArb, (key) => {
        const prefix = scopePrefix(key.scope, key.scopeId);
        const id = encodeKey(key);
        expect(keyInScope(prefix, key.toolName)).toBe(id);
        expect(id.startsWith(`${prefix}|`)).toBe(true);
      }),
    );
  });

  it('gives distinct (scope, scopeId) pairs distinct prefixes', () => {
    fc.assert(
      fc.property(keyArb, keyArb, (a, b) => {
        fc.pre(a.scope !== b.scope || a.scopeId !== b.scopeId);
        expect(scopePrefix(a.scope, a.scopeId)).not.toBe(scopePrefix(b.scope, b.scopeId));
      }),
    );
  });

  it('cascadeScopes lists the scopes of cascadeKeys in the same order', () => {
    const context = { sessionId: 's', projectId: 'p' };
    expect(cascadeScopes(context)).toEqual(cascadeKeys('t', context).map(({ scope, scopeId }) => ({ scope, scopeId })));
  });
});

describe('validateKey (D3a, D6)', () => {
  const id256 = 'a'.repeat(256);
  const id257 = 'a'.repeat(257);

  it.each<[string, { scope: unknown; scopeId?: unknown; toolName: unknown }, HealthKey]>([
    ['GLOBAL with null', { scope: 'GLOBAL', scopeId: null, toolName: 'jira' }, { scope: Scope.GLOBAL, scopeId: null, toolName: 'jira' }],
    ['GLOBAL without scopeId', { scope: 'GLOBAL', toolName: 'jira' }, { scope: Scope.GLOBAL, scopeId: null, toolName: 'jira' }],
    [
      'SESSION',
      { scope: 'SESSION', scopeId: 's-1', toolName: 'client_file_read' },
      { scope: Scope.SESSION, scopeId: 's-1', toolName: 'client_file_read' },
    ],
    [
      'USER',
      { scope: 'USER', scopeId: 'alice@example.org', toolName: 'jira' },
      { scope: Scope.USER, scopeId: 'alice@example.org', toolName: 'jira' },
    ],
    [
      'PROJECT',
      { scope: 'PROJECT', scopeId: 'org/proj', toolName: 'mcp:search' },
      { scope: Scope.PROJECT, scopeId: 'org/proj', toolName: 'mcp:search' },
    ],
    ['TENANT', { scope: 'TENANT', scopeId: 't_1.x', toolName: 'a' }, { scope: Scope.TENANT, scopeId: 't_1.x', toolName: 'a' }],
    [
      'every allowed character',
      { scope: 'USER', scopeId: 'Az09._:@/-', toolName: 'Az09._:@/-' },
      { scope: Scope.USER, scopeId: 'Az09._:@/-', toolName: 'Az09._:@/-' },
    ],
    ['256-char tool name', { scope: 'GLOBAL', scopeId: null, toolName: id256 }, { scope: Scope.GLOBAL, scopeId: null, toolName: id256 }],
    ['256-char scope id', { scope: 'USER', scopeId: id256, toolName: 'jira' }, { scope: Scope.USER, scopeId: id256, toolName: 'jira' }],
  ])('accepts %s', (_label, input, expected) => {
    expect(validateKey(input)).toEqual(expected);
  });

  it.each<[string, { scope: unknown; scopeId?: unknown; toolName: unknown }, string]>([
    ['GLOBAL with a scopeId', { scope: 'GLOBAL', scopeId: 't1', toolName: 'jira' }, 'scopeId'],
    ['GLOBAL with an empty scopeId', { scope: 'GLOBAL', scopeId: '', toolName: 'jira' }, 'scopeId'],
    ['SESSION without scopeId', { scope: 'SESSION', toolName: 'jira' }, 'scopeId'],
    ['SESSION with null scopeId', { scope: 'SESSION', scopeId: null, toolName: 'jira' }, 'scopeId'],
    ['USER with empty scopeId', { scope: 'USER', scopeId: '', toolName: 'jira' }, 'scopeId'],
    ['PROJECT with numeric scopeId', { scope: 'PROJECT', scopeId: 42, toolName: 'jira' }, 'scopeId'],
    ['TENANT with a space in scopeId', { scope: 'TENANT', scopeId: 't 1', toolName: 'jira' }, 'scopeId'],
    ['USER with 257-char scopeId', { scope: 'USER', scopeId: id257, toolName: 'jira' }, 'scopeId'],
    ['unknown scope', { scope: 'WORLD', scopeId: null, toolName: 'jira' }, 'scope'],
    ['lower-case scope', { scope: 'global', scopeId: null, toolName: 'jira' }, 'scope'],
    ['missing scope', { scope: undefined, toolName: 'jira' }, 'scope'],
    ['tool name with a pipe', { scope: 'GLOBAL', scopeId: null, toolName: 'a|b' }, 'toolName'],
    ['tool name with a percent', { scope: 'GLOBAL', scopeId: null, toolName: 'a%7C' }, 'toolName'],
    ['tool name with a space', { scope: 'GLOBAL', scopeId: null, toolName: 'jira search' }, 'toolName'],
    ['tool name with a trailing newline', { scope: 'GLOBAL', scopeId: null, toolName: 'jira\n' }, 'toolName'],
    ['tool name with non-ASCII', { scope: 'GLOBAL', scopeId: null, toolName: 'jïra' }, 'toolName'],
    ['empty tool name', { scope: 'GLOBAL', scopeId: null, toolName: '' }, 'toolName'],
    ['non-string tool name', { scope: 'GLOBAL', scopeId: null, toolName: 7 }, 'toolName'],
    ['257-char tool name', { scope: 'GLOBAL', scopeId: null, toolName: id257 }, 'toolName'],
  ])('rejects %s on field %s', (_label, input, field) => {
    const error = errorOf(() => validateKey(input));
    expect(error.code).toBe(DomainErrorCode.INVALID_ARGUMENT);
    expect(error.field).toBe(field);
  });

  it.each<[unknown, Scope]>([
    [undefined, Scope.SESSION],
    [null, Scope.USER],
    ['', Scope.TENANT],
  ])('a missing scopeId (%j) is reported as required for %s', (scopeId, scope) => {
    expect(errorOf(() => validateKey({ scope, scopeId, toolName: 'jira' })).message).toBe(`scopeId: is required for ${scope}`);
  });
});

describe('validateContext (D6)', () => {
  it.each<[string, CallContext, CallContext]>([
    ['empty', {}, {}],
    [
      'all parts',
      { sessionId: 's1', userId: 'alice', projectId: 'p1', tenantId: 't1' },
      { sessionId: 's1', userId: 'alice', projectId: 'p1', tenantId: 't1' },
    ],
    ['null parts dropped', { sessionId: null, userId: 'alice', projectId: null, tenantId: null }, { userId: 'alice' }],
    ['undefined parts dropped', { sessionId: undefined, tenantId: 't1' }, { tenantId: 't1' }],
  ])('accepts %s', (_label, input, expected) => {
    expect(validateContext(input)).toEqual(expected);
  });

  it('drops fields it does not know', () => {
    expect(validateContext({ userId: 'alice', extra: 'x' } as CallContext)).toEqual({ userId: 'alice' });
  });

  it.each<[keyof CallContext, unknown]>([
    ['sessionId', ''],
    ['userId', 'al ice'],
    ['projectId', 'p|1'],
    ['tenantId', 'x'.repeat(257)],
    ['userId', 5],
  ])('rejects a bad %s (%j)', (field, value) => {
    const error = errorOf(() => validateContext({ userId: 'ok', [field]: value } as CallContext));
    expect(error.code).toBe(DomainErrorCode.INVALID_ARGUMENT);
    expect(error.field).toBe(field);
  });
});

describe('cascadeKeys (§4, D6)', () => {
  const key = (scope: Scope, scopeId: string | null): HealthKey => ({ scope, scopeId, toolName: 'jira' });

  it.each<[string, CallContext, HealthKey[]]>([
    [
      'full context, narrow → wide',
      { sessionId: 's1', userId: 'u1', projectId: 'p1', tenantId: 't1' },
      [key(Scope.SESSION, 's1'), key(Scope.USER, 'u1'), key(Scope.PROJECT, 'p1'), key(Scope.TENANT, 't1'), key(Scope.GLOBAL, null)],
    ],
    ['empty context: GLOBAL only', {}, [key(Scope.GLOBAL, null)]],
    ['nulls are absent', { sessionId: null, userId: null, projectId: null, tenantId: null }, [key(Scope.GLOBAL, null)]],
    ['session only', { sessionId: 's1' }, [key(Scope.SESSION, 's1'), key(Scope.GLOBAL, null)]],
    [
      'user and tenant, gaps skipped',
      { userId: 'u1', tenantId: 't1' },
      [key(Scope.USER, 'u1'), key(Scope.TENANT, 't1'), key(Scope.GLOBAL, null)],
    ],
    [
      'field order in the context does not matter',
      { tenantId: 't1', projectId: 'p1', userId: 'u1', sessionId: 's1' },
      [key(Scope.SESSION, 's1'), key(Scope.USER, 'u1'), key(Scope.PROJECT, 'p1'), key(Scope.TENANT, 't1'), key(Scope.GLOBAL, null)],
    ],
  ])('%s', (_label, context, expected) => {
    expect(cascadeKeys('jira', context)).toEqual(expected);
  });

  it('always ends with GLOBAL and keeps the tool name (property)', () => {
    const part = fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined });
    fc.assert(
      fc.property(part, part, part, part, (sessionId, userId, projectId, tenantId) => {
        const keys = cascadeKeys('t', { sessionId, userId, projectId, tenantId });
        expect(keys[keys.length - 1]).toEqual({ scope: Scope.GLOBAL, scopeId: null, toolName: 't' });
        expect(keys).toHaveLength(1 + [sessionId, userId, projectId, tenantId].filter((v) => v !== undefined).length);
        expect(keys.every((k) => k.toolName === 't')).toBe(true);
      }),
    );
  });
});

describe('describeKey', () => {
  it('names the scope, its id when there is one, and the tool', () => {
    expect(describeKey({ scope: Scope.SESSION, scopeId: 's1', toolName: 'jira_search' })).toBe('SESSION s1 / jira_search');
    expect(describeKey({ scope: Scope.GLOBAL, scopeId: null, toolName: 'jira_search' })).toBe('GLOBAL / jira_search');
  });
});

describe('cascadeKeyIds', () => {
  it('gives the cascade keys and exactly their encoded ids, for any strings', () => {
    const part = fc.string({ unit: fc.constantFrom('a', '|', '%', '0', 'Z') });
    fc.assert(
      fc.property(part, part, fc.option(part, { nil: undefined }), (toolName, sessionId, tenantId) => {
        const context = { sessionId, userId: 'u|1', tenantId };
        const { keys, ids } = cascadeKeyIds(toolName, context);
        expect(keys).toEqual(cascadeKeys(toolName, context));
        expect(ids).toEqual(keys.map(encodeKey));
      }),
    );
  });
});
