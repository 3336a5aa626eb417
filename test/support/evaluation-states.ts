import fc from 'fast-check';
import { EventRelay } from '../../src/write-path/event-relay.service';
import { KEYS, TestApp } from './test-app';

/**
 * The generated states of one tool's cascade that the D20 property tests build through the real
 * routes (issue 24; reused by the batch's, issue 27): entries at every scope of one caller with
 * every status and estimate, pins, overlapping and adjacent maintenance windows, cooldowns of
 * every class. Instants are minutes after T0, the fake clock's start.
 */
export const TOOL = 'jira';
export const T0 = '2026-05-23T14:00:00.000Z';
const MIN = 60_000;
export const at = (min: number) => new Date(Date.parse(T0) + min * MIN).toISOString();
export const CONTEXT = { userId: 'alice', projectId: 'p1', tenantId: 'acme' };
export const KEYS_OF_CASCADE = [
  { scope: 'USER', scopeId: 'alice' },
  { scope: 'PROJECT', scopeId: 'p1' },
  { scope: 'TENANT', scopeId: 'acme' },
  { scope: 'GLOBAL', scopeId: null },
] as const;
export const CLASSES = ['TECHNICALLY_BROKEN', 'USER_SPECIFIC_TECHNICAL', 'USER_PERMISSION', 'USER_INPUT', 'INTERMITTENT'];

const keyState = fc.record({
  status: fc.constantFrom('none', 'DOWN', 'DEGRADED'),
  recovery: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
  pin: fc.option(fc.record({ status: fc.constantFrom('OK', 'DOWN'), minutes: fc.integer({ min: 1, max: 8 }) }), { nil: null }),
  cooldown: fc.option(fc.record({ classification: fc.constantFrom(...CLASSES), minutes: fc.integer({ min: 1, max: 8 }) }), { nil: null }),
});
const windowState = fc.record({
  key: fc.integer({ min: 0, max: 3 }),
  from: fc.integer({ min: -2, max: 3 }),
  length: fc.integer({ min: 1, max: 4 }),
});
export const stateArb = fc.record({
  keys: fc.tuple(keyState, keyState, keyState, keyState),
  windows: fc.array(windowState, { maxLength: 3 }),
});
export type EvaluationState = typeof stateArb extends fc.Arbitrary<infer T> ? T : never;

/** Writes `state` through the routes its writers use (system writes, the admin's pin, the checker's cooldown, maintenance). */
export async function buildState(t: TestApp, state: EvaluationState): Promise<void> {
  const post = (key: string, path: string, body: object) => t.http.post(path).set('x-api-key', key).send(body);
  // Each write's events reach the log before the next write, as when the relay keeps up: an event's
  // scope status is read as the relay publishes it (D27), and a late pass would read later writes.
  const relayed = () => t.app.get(EventRelay).drain();
  for (const [i, k] of state.keys.entries()) {
    const key = { ...KEYS_OF_CASCADE[i], toolName: TOOL };
    const expectedRecoveryAt = k.recovery === null ? null : at(k.recovery * 30);
    if (k.status === 'DOWN') {
      await post(KEYS.dispatcher, '/v1/health/mark-unavailable', {
        ...key,
        code: 'BACKEND_FAILED',
        source: 'probe',
        expectedRecoveryAt,
      }).expect(200);
      await relayed();
    } else if (k.status === 'DEGRADED') {
      await post(KEYS.dispatcher, '/v1/health/mark-intermittent', { ...key, source: 'probe', expectedRecoveryAt }).expect(200);
      await relayed();
    }
    if (k.pin) {
      const res = await post(KEYS.admin, '/graphql', {
        query: 'mutation($input: PinToolHealthInput!) { pinToolHealth(input: $input) { id } }',
        variables: { input: { ...key, status: k.pin.status, until: at(k.pin.minutes * 30), reason: 'r' } },
      }).expect(200);
      if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
      await relayed();
    }
    if (k.cooldown) {
      const userClass = k.cooldown.classification === 'USER_PERMISSION' || k.cooldown.classification === 'USER_INPUT';
      await post(KEYS.dispatcher, '/v1/cooldowns', {
        ...key,
        errorSignature: 'http-502',
        classification: k.cooldown.classification,
        durationMs: k.cooldown.minutes * 30 * MIN,
        userId: userClass ? 'alice' : null,
      }).expect(200);
      await relayed();
    }
  }
  for (const w of state.windows) {
    await post(KEYS.admin, '/v1/maintenance-windows', {
      ...KEYS_OF_CASCADE[w.key],
      toolName: TOOL,
      from: at(w.from * 30),
      until: at(Math.max(w.from + w.length, 1) * 30), // a window must end in the future
      reason: 'upgrade',
    }).expect(201);
    await relayed();
  }
}
