import fc from 'fast-check';
import { DomainError } from './domain-error';
import {
  canonicalJson,
  ClaimDecision,
  decideClaim,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_RETENTION_MS,
  IdempotencyRecordView,
  IdempotencyState,
  parseIdempotencyKey,
  requestFingerprint,
} from './idempotency-key';

const T0 = new Date('2026-05-23T14:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const LOCK_MS = 60_000;

/** A record claimed at T0, as the service writes it. */
const record = (patch: Partial<IdempotencyRecordView> = {}): IdempotencyRecordView => ({
  fingerprint: 'f1',
  state: IdempotencyState.DONE,
  lockedUntil: at(LOCK_MS),
  expiresAt: at(IDEMPOTENCY_RETENTION_MS),
  ...patch,
});

describe('Idempotency-Key header (P122)', () => {
  it('takes the sf-string form and, leniently, a bare token: both name the same key', () => {
    expect(parseIdempotencyKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"')).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
    expect(parseIdempotencyKey('8e03978e-40d5-43e8-bc93-6894a57f9324')).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
    expect(parseIdempotencyKey('"a \\"quoted\\" \\\\ key"')).toBe('a "quoted" \\ key');
    expect(parseIdempotencyKey(`"${'k'.repeat(255)}"`)).toHaveLength(255);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['blank', '  '],
    ['empty string', '""'],
    ['unterminated', '"abc'],
    ['two values (repeated header)', '"a", "b"'],
    ['sent twice', ['a', 'b']],
    ['a space in a bare token', 'a b'],
    ['a stray backslash escape', '"a\\x"'],
    ['non-ASCII', '"café"'],
    ['non-ASCII bare', 'café'],
    ['a control character', '"a\u0001"'],
    ['too long', 'k'.repeat(256)],
  ])('refuses %s with a 400 naming the header', (_, value) => {
    let error: unknown;
    try {
      parseIdempotencyKey(value as string | string[] | undefined);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'Idempotency-Key' });
  });
});

describe('request fingerprint (D21)', () => {
  const base = { method: 'POST', url: '/v1/diagnoses', caller: 'writer', body: { a: 1, b: { c: [1, 2], d: null } } };

  it('is the same for the same body spelt with another key order', () => {
    expect(canonicalJson({ b: { d: null, c: [1, 2] }, a: 1 })).toBe(canonicalJson(base.body));
    // A Date reads as its instant, not as an empty object: two instants never read the same.
    expect(canonicalJson({ at: new Date(0) })).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
    expect(canonicalJson({ at: new Date(0) })).not.toBe(canonicalJson({ at: new Date(1) }));
    expect(requestFingerprint({ ...base, body: { b: { d: null, c: [1, 2] }, a: 1 } })).toBe(requestFingerprint(base));
  });

  it('differs with the body, the route, the method or the caller', () => {
    const f = requestFingerprint(base);
    expect(requestFingerprint({ ...base, body: { ...base.body, a: 2 } })).not.toBe(f);
    expect(requestFingerprint({ ...base, body: { ...base.body, b: { c: [2, 1], d: null } } })).not.toBe(f);
    expect(requestFingerprint({ ...base, url: '/v1/cooldowns' })).not.toBe(f);
    expect(requestFingerprint({ ...base, method: 'PUT' })).not.toBe(f);
    expect(requestFingerprint({ ...base, caller: 'admin' })).not.toBe(f);
  });
});

describe('claim decision with an injected clock (D21, P122)', () => {
  it('takes a key nothing holds', () => {
    expect(decideClaim(null, 'f1', T0)).toBe(ClaimDecision.TAKE);
  });

  it('replays a finished answer of the same request until 24 h after the first, then lets the key go', () => {
    expect(decideClaim(record(), 'f1', at(1))).toBe(ClaimDecision.REPLAY);
    expect(decideClaim(record(), 'f1', at(IDEMPOTENCY_RETENTION_MS - 1))).toBe(ClaimDecision.REPLAY);
    expect(decideClaim(record(), 'f1', at(IDEMPOTENCY_RETENTION_MS))).toBe(ClaimDecision.TAKE);
    expect(decideClaim(record(), 'f2', at(IDEMPOTENCY_RETENTION_MS))).toBe(ClaimDecision.TAKE);
  });

  it('refuses another request under a finished key', () => {
    expect(decideClaim(record(), 'f2', at(1))).toBe(ClaimDecision.MISMATCH);
  });

  it('makes another request under a key in flight wait for it, not refuse it yet: the first may give the key back', () => {
    expect(decideClaim(record({ state: IdempotencyState.IN_FLIGHT }), 'f2', at(1))).toBe(ClaimDecision.OTHER_IN_FLIGHT);
    expect(decideClaim(record({ state: IdempotencyState.IN_FLIGHT }), 'f1', at(1))).toBe(ClaimDecision.IN_FLIGHT);
  });

  it('holds an in-flight key until its lock ends; after that (the request crashed) the key is free, whatever the body', () => {
    const inFlight = record({ state: IdempotencyState.IN_FLIGHT });
    expect(decideClaim(inFlight, 'f1', at(LOCK_MS - 1))).toBe(ClaimDecision.IN_FLIGHT);
    expect(decideClaim(inFlight, 'f1', at(LOCK_MS))).toBe(ClaimDecision.TAKE);
    expect(decideClaim(inFlight, 'f2', at(LOCK_MS))).toBe(ClaimDecision.TAKE);
  });

  it('a finished record ignores the lock: its answer stays for the whole 24 h', () => {
    expect(decideClaim(record(), 'f1', at(LOCK_MS * 10))).toBe(ClaimDecision.REPLAY);
  });
});

describe('IDEMPOTENCY_KEY_PATTERN (the OpenAPI header schema)', () => {
  const pattern = new RegExp(IDEMPOTENCY_KEY_PATTERN);
  const accepted = (value: string) => {
    try {
      parseIdempotencyKey(value);
      return true;
    } catch {
      return false;
    }
  };

  it('accepts exactly what parseIdempotencyKey accepts, for quoted and bare values of any printable ASCII', () => {
    const ascii = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 });
    const value = fc.oneof(
      ascii,
      ascii.map((s) => `"${s}"`),
      fc.constantFrom('', '""', '"\\""', 'a,b', ' x', 'x'.repeat(255), 'x'.repeat(256), `"${'x'.repeat(255)}"`, `"${'x'.repeat(256)}"`),
    );
    fc.assert(
      fc.property(value, (v) => {
        // Leading and trailing spaces are trimmed by the server and never generated from the pattern.
        if (v !== v.trim()) return;
        expect(pattern.test(v)).toBe(accepted(v));
      }),
      { numRuns: 2000 },
    );
  });
});
