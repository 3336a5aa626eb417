import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { DATABASE_UNAVAILABLE_MESSAGE } from './database-unavailable';

/** How often a request past its deadline looks again while the database keeps answering. */
const RECHECK_MS = 50;

/** What the deadline asks of the database's liveness (DatabaseLiveness). */
export interface DeadlineLiveness {
  upSince(instant: number): boolean;
}

/**
 * The one deadline rule of every surface (P41): REST routes, GraphQL root fields, MCP tool calls
 * and the Idempotency-Key hook's own reads all answer within about `deadlineMs` whatever the
 * database does. The driver's bounds cover a database that refuses, not one that is silent (a
 * sent command waits out the socket timeout). `expire` runs `deadlineMs` after `sentAt` unless
 * the database has answered all along since then: the request is then slow for another reason
 * (a busy machine) and is looked at again every RECHECK_MS, until it ends or the database stops
 * answering. One timer per request; the returned function stops it.
 */
export function armDeadline(sentAt: number, deadlineMs: number, liveness: DeadlineLiveness, expire: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    if (liveness.upSince(sentAt)) {
      timer = setTimeout(check, RECHECK_MS);
      return;
    }
    timer = undefined;
    expire();
  };
  timer = setTimeout(check, Math.max(0, sentAt + deadlineMs - Date.now()));
  return () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
}

/** The error a request gets at its deadline when nothing more is to be said (a read). */
export const databaseUnavailable = (): DomainError => new DomainError(DomainErrorCode.UNAVAILABLE, DATABASE_UNAVAILABLE_MESSAGE);

/**
 * `work` raced against the deadline: its result or error, or at the deadline the error
 * `atDeadline` returns. The work itself runs on (a write in flight is one atomic document
 * operation, D3); `atDeadline` is where a caller hands its end over (P123).
 */
export function withinDeadline<T>(
  work: Promise<T>,
  sentAt: number,
  deadlineMs: number,
  liveness: DeadlineLiveness,
  atDeadline: () => Error = databaseUnavailable,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const stop = armDeadline(sentAt, deadlineMs, liveness, () => {
      settled = true;
      reject(atDeadline());
    });
    work.then(
      (value) => {
        if (settled) return;
        settled = true;
        stop();
        resolve(value);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        stop();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
