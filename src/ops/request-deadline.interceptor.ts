import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import { AppConfig } from '../config/app-config';
import { DomainError, DomainErrorCode } from '../domain/domain-error';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../errors/to-domain-error';
import { DatabaseLiveness } from '../persistence/database-liveness';

const RECHECK_MS = 50;

/** The probes answer for themselves (their body says what is wrong). */
const PROBES = 'LivenessController';

/**
 * P41: every request answers within about REQUEST_DEADLINE_MS whatever the database does. The
 * driver's own bounds cover a database that refuses (reset: server selection) but not one that
 * is silent (frozen, black hole: a sent command waits out the socket timeout). At the deadline the
 * request answers 503 with the database-unavailable body unless the database has answered pings
 * all along since the request was sent (DatabaseLiveness): then it is slow for another reason (a
 * busy machine) and keeps going, checked again every RECHECK_MS, until it ends or the database
 * stops answering. A request sent during an outage answers at its deadline even if the database
 * came back meanwhile. One timer per request.
 *
 * The abandoned handler runs on: a write in flight is one atomic document operation (D3), so it
 * is applied entirely or not at all, and a write answered 503 may or may not have been applied —
 * as with any timeout. Only an answered 2xx promises the write is stored.
 *
 * A GraphQL subscription is a stream: only its start is bounded.
 */
@Injectable()
export class RequestDeadlineInterceptor implements NestInterceptor {
  constructor(
    private readonly config: AppConfig,
    private readonly liveness: DatabaseLiveness,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const controller = context.getClass().name;
    if (controller === PROBES) return next.handle();
    if (context.getType<string>() === 'graphql' && context.getArgByIndex(3)?.operation?.operation === 'subscription') return next.handle();
    const { requestDeadlineMs } = this.config;
    const sentAt = Date.now();
    return new Observable((subscriber) => {
      let timer: NodeJS.Timeout | undefined;
      const expire = () => {
        if (this.liveness.upSince(sentAt)) {
          timer = setTimeout(expire, RECHECK_MS);
          return;
        }
        timer = undefined;
        subscription.unsubscribe();
        subscriber.error(new DomainError(DomainErrorCode.UNAVAILABLE, DATABASE_UNAVAILABLE_MESSAGE));
      };
      const stop = () => {
        if (timer) clearTimeout(timer);
        timer = undefined;
      };
      timer = setTimeout(expire, requestDeadlineMs);
      const subscription = next.handle().subscribe({
        next: (value) => {
          stop();
          subscriber.next(value);
        },
        error: (error) => {
          stop();
          subscriber.error(error);
        },
        complete: () => {
          stop();
          subscriber.complete();
        },
      });
      return () => {
        stop();
        subscription.unsubscribe();
      };
    });
  }
}
