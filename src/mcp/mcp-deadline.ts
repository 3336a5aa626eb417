import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../errors/to-domain-error';

const RECHECK_MS = 50;

/**
 * P41 for MCP (P136): McpController hijacks the reply so the SDK transport can write it, and the
 * RequestDeadlineInterceptor's 503 is then dropped; a call in flight when the database went silent
 * answered after the driver's socket timeout (4.2–5.4 s). So a tool's work races the same deadline
 * with the same rule: at `deadlineMs` after `sentAt` it fails with UNAVAILABLE unless the database
 * has answered all along since then (`upSince`), in which case it is rechecked every 50 ms. The
 * abandoned work runs on, as under the interceptor.
 */
export function withinDeadline<T>(
  work: Promise<T>,
  sentAt: number,
  deadlineMs: number,
  liveness: { upSince(instant: number): boolean },
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const expire = () => {
      if (liveness.upSince(sentAt)) {
        timer = setTimeout(expire, RECHECK_MS);
        return;
      }
      timer = undefined;
      reject(new DomainError(DomainErrorCode.UNAVAILABLE, DATABASE_UNAVAILABLE_MESSAGE));
    };
    timer = setTimeout(expire, Math.max(0, sentAt + deadlineMs - Date.now()));
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
