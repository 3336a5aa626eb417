import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import { AppConfig } from '../config/app-config';
import { abandonAtDeadline, deadlineError, Settled } from '../idempotency/deadline-handoff';
import { DatabaseLiveness } from '../database/database-liveness';

const RECHECK_MS = 50;

/** The probes answer for themselves (their body says what is wrong). */
const PROBES = 'LivenessController';

/**
 * Every request answers within about REQUEST_DEADLINE_MS whatever the database does (P41). The
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
 * as with any timeout. Only an answered 2xx promises the write is stored. P123: the 503 says so
 * (`writeMayHaveApplied`), and how the abandoned handler ends is handed to the Idempotency-Key
 * hook, so a retry with the same key gets that real answer (409 until it exists), never a second
 * application.
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
      /** Set once the request is answered at its deadline: the handler's end is handed over instead (P123). */
      let abandoned: { value: unknown; settle: (outcome: Settled) => void } | undefined;
      const expire = () => {
        if (this.liveness.upSince(sentAt)) {
          timer = setTimeout(expire, RECHECK_MS);
          return;
        }
        timer = undefined;
        abandonAtDeadline(context, new Promise<Settled>((settle) => (abandoned = { value: undefined, settle })));
        subscriber.error(deadlineError(context));
      };
      const stop = () => {
        if (timer) clearTimeout(timer);
        timer = undefined;
      };
      timer = setTimeout(expire, requestDeadlineMs);
      const subscription = next.handle().subscribe({
        next: (value) => {
          stop();
          if (abandoned) abandoned.value = value;
          else subscriber.next(value);
        },
        error: (error) => {
          stop();
          if (abandoned) abandoned.settle({ ok: false, error });
          else subscriber.error(error);
        },
        complete: () => {
          stop();
          if (abandoned) abandoned.settle({ ok: true, value: abandoned.value });
          else subscriber.complete();
        },
      });
      return () => {
        stop();
        if (!abandoned) subscription.unsubscribe(); // an abandoned handler is still watched for its end (P123)
      };
    });
  }
}
