import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { IDEMPOTENCY_KEY_HEADER } from '../domain/idempotency-key';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../database/database-unavailable';
import { StoredAnswer } from './idempotency-record.schema';

/**
 * How an abandoned handler ended, after its request was answered 503 at the deadline (P41): the
 * answer it turned out to have (status and body), or an error (nothing was written, P122).
 */
export type Settled = { ok: true; status: number; value: unknown } | { ok: false };

/** The request as the deadline sees it, on REST (Fastify's request) and GraphQL (the context's `req`). */
export interface DeadlineRequest {
  raw?: object;
  headers?: Record<string, string | string[] | undefined>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
/** What a keyed GraphQL mutation that ended after its deadline answers on a retry (P123). */
export const APPLIED_AFTER_DEADLINE =
  'this mutation was applied after its request had been answered at the deadline; its result was not kept, so read the current state instead of retrying it';

/** The late answers of requests answered at their deadline, by raw request (the idempotency hook reads them). */
const lateAnswers = new WeakMap<object, Promise<StoredAnswer | null>[]>();

/**
 * The 503 a request gets at its deadline (P41) says whether its write may still be applied
 * (`writeMayHaveApplied`) and what a caller should do about it (P123).
 */
export function deadlineError(write: boolean, request: DeadlineRequest | undefined): DomainError {
  if (!write) return new DomainError(DomainErrorCode.UNAVAILABLE, DATABASE_UNAVAILABLE_MESSAGE, undefined, false);
  const keyed = request?.headers?.[IDEMPOTENCY_KEY_HEADER.toLowerCase()] !== undefined;
  const message = keyed
    ? `the database did not answer in time and this write may still be applied: retry with the same ${IDEMPOTENCY_KEY_HEADER} to get its real answer (409 while it is still running)`
    : `the database did not answer in time and this write may still be applied: a plain retry may apply it twice; send an ${IDEMPOTENCY_KEY_HEADER} header to retry safely`;
  return new DomainError(DomainErrorCode.UNAVAILABLE, message, undefined, true);
}

/**
 * The request was answered 503 at its deadline while its handler runs on; `settled` is how
 * the handler ends (P123). The idempotency hook stores the answer built here (or gives the key back
 * when the write failed) instead of the 503. A GraphQL mutation's result is not kept (a retry is
 * told it was applied); a REST answer is kept as the handler gave it.
 */
export function abandonAtDeadline(request: DeadlineRequest | undefined, surface: 'rest' | 'graphql', settled: Promise<Settled>): void {
  if (!request?.raw) return;
  const answer = settled.then((s): StoredAnswer | null => {
    if (!s.ok) return null; // an error: nothing was written (P122), the key is given back
    if (surface === 'graphql')
      return json(200, { data: null, errors: [{ message: APPLIED_AFTER_DEADLINE, extensions: { code: 'APPLIED_AFTER_DEADLINE' } }] });
    return json(s.status, s.value);
  });
  const list = lateAnswers.get(request.raw) ?? [];
  list.push(answer);
  lateAnswers.set(request.raw, list);
}

/** The answer a request abandoned at its deadline turned out to have (null: nothing written), or undefined if it was not abandoned. */
export function lateAnswerOf(raw: object): Promise<StoredAnswer | null> | undefined {
  const list = lateAnswers.get(raw);
  if (!list) return undefined;
  return Promise.all(list).then((answers) => answers.find((a) => a !== null) ?? null);
}

function json(status: number, value: unknown): StoredAnswer {
  const text = value === undefined ? '' : JSON.stringify(value);
  return { status, headers: { 'content-type': JSON_TYPE }, body: Buffer.from(text).toString('base64') };
}
