import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { API_KEY_HEADER } from '../auth/api-key.guard';
import { ApiKeyService } from '../auth/api-key.service';
import { Principal } from '../auth/principal';
import { Clock } from '../runtime/clock';
import { AppConfig } from '../config/app-config';
import { DomainError, DomainErrorCode } from '../domain/domain-error';
import {
  ClaimDecision,
  decideClaim,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_RETENTION_MS,
  parseIdempotencyKey,
  requestFingerprint,
} from '../domain/idempotency-key';
import { toDomainError } from '../errors/to-domain-error';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../database/database-unavailable';
import { DatabaseLiveness } from '../database/database-liveness';
import { answerWrote, captureAnswer, REPLAYED_HEADER, replayBody } from './captured-answer';
import { lateAnswerOf } from './deadline-handoff';
import { withinDeadline } from '../database/request-deadline';
import { IdempotencyStore, KeyRecord } from './idempotency.store';
import { StoredAnswer } from './idempotency-record.schema';
import { refusal } from './refusal';
import { fingerprintBody, WriteSurface } from './write-requests';

// Structural types: only the members of the adapter's Fastify used here (its own types are generic).
export interface KeyedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  raw: import('node:http').IncomingMessage;
  principal?: Principal;
}
export interface KeyedReply {
  raw: import('node:http').ServerResponse;
  code(status: number): KeyedReply;
  header(name: string, value: string): KeyedReply;
  send(body: unknown): KeyedReply;
}

const FINISH_ATTEMPTS = 5;
const mismatch = () =>
  new DomainError(
    DomainErrorCode.IDEMPOTENCY_KEY_MISMATCH,
    `${IDEMPOTENCY_KEY_HEADER}: already used with another request (method, path, API key or body); send a new key for a new request`,
    IDEMPOTENCY_KEY_HEADER,
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The whole Idempotency-Key mechanism for a write that carries the header, on all three
 * surfaces (REST, GraphQL mutations, MCP writer tools), called once per request by the Fastify
 * hook (idempotency.hook.ts) before the route's handler (D21, P122). Claims the key in the database (one
 * request per caller and key, across instances), replays a finished answer, refuses a mismatch
 * (422) or a key still in flight after a short wait (409), and records the answer as it is sent —
 * or, for a write answered 503 at its deadline, the answer it turned out to have (P123).
 */
@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly store: IdempotencyStore,
    private readonly keys: ApiKeyService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly liveness: DatabaseLiveness,
  ) {}

  /** Returns the reply when the request was answered here (replay or refusal), undefined to run the handler. */
  async handle(surface: WriteSurface, request: KeyedRequest, reply: KeyedReply): Promise<KeyedReply | undefined> {
    try {
      return await this.claim(surface, request, reply);
    } catch (error) {
      const domain = toDomainError(error);
      if (!domain) throw error;
      // The database is away: nothing ran, which the 503 says (P123).
      const refused =
        domain.code === DomainErrorCode.UNAVAILABLE && domain.writeMayHaveApplied === undefined
          ? new DomainError(DomainErrorCode.UNAVAILABLE, DATABASE_UNAVAILABLE_MESSAGE, undefined, false)
          : domain;
      return refusal(surface, reply, request.body, refused);
    }
  }

  private async claim(surface: WriteSurface, request: KeyedRequest, reply: KeyedReply): Promise<KeyedReply | undefined> {
    const principal = this.principalOf(request);
    if (!principal) return undefined; // no or unknown API key: the guard answers 401, nothing to record
    let key: string;
    try {
      key = parseIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]);
    } catch (error) {
      return refusal(surface, reply, request.body, error as DomainError);
    }
    const id = `${principal.name}:${key}`;
    const fingerprint = requestFingerprint({
      method: request.method,
      url: request.url,
      caller: principal.name,
      body: fingerprintBody(surface, request.body),
    });
    const owner = randomUUID();
    const waitUntil = Date.now() + this.config.idempotencyWaitMs;
    for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
      const now = this.clock.now();
      const existing = await this.bounded(this.store.find(id));
      const decision = decideClaim(existing, fingerprint, now);
      if (decision === ClaimDecision.REPLAY) return this.replay(surface, reply, request.body, existing!.answer!);
      if (decision === ClaimDecision.MISMATCH) return refusal(surface, reply, request.body, mismatch());
      if (decision === ClaimDecision.IN_FLIGHT || decision === ClaimDecision.OTHER_IN_FLIGHT) {
        if (Date.now() < waitUntil) {
          await sleep(pause);
          continue;
        }
        if (decision === ClaimDecision.OTHER_IN_FLIGHT) return refusal(surface, reply, request.body, mismatch());
        return refusal(
          surface,
          reply,
          request.body,
          new DomainError(
            DomainErrorCode.IDEMPOTENCY_KEY_IN_FLIGHT,
            `${IDEMPOTENCY_KEY_HEADER}: the first request with this key is still running; retry shortly with the same key`,
            IDEMPOTENCY_KEY_HEADER,
          ),
        );
      }
      if (await this.bounded(this.overCap(principal.name, existing, now)))
        return refusal(
          surface,
          reply,
          request.body,
          new DomainError(
            DomainErrorCode.IDEMPOTENCY_KEY_LIMIT,
            `${IDEMPOTENCY_KEY_HEADER}: this API key already holds ${this.config.idempotencyKeysPerCaller} live keys; retry without one or once older keys expire (24 h after their first use)`,
            IDEMPOTENCY_KEY_HEADER,
          ),
        );
      const claim = {
        id,
        caller: principal.name,
        fingerprint,
        owner,
        lockedUntil: new Date(now.getTime() + this.config.idempotencyLockMs),
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_RETENTION_MS),
      };
      const claimed = await this.bounded(
        existing ? this.store.takeOver(existing.owner, claim) : this.store.insert(claim),
        (late) => late && void this.store.release(id, owner).catch(() => undefined), // claimed after the 503: give it back
      );
      if (!claimed) continue; // another request took it first: meet its record
      captureAnswer(reply.raw, (answer) => void this.finish(surface, request, id, owner, answer));
      return undefined;
    }
  }

  /**
   * P41 for the hook's own database calls: a call the database keeps waiting past the request
   * deadline (while it does not answer pings) ends the request with a 503; `onLate` gets the
   * call's result if it completes after that.
   */
  private bounded<T>(work: Promise<T>, onLate?: (value: T) => void): Promise<T> {
    return withinDeadline(work, Date.now(), this.config.requestDeadlineMs, this.liveness, () => {
      work.then((value) => onLate?.(value)).catch(() => undefined);
      return new DomainError(DomainErrorCode.UNAVAILABLE, DATABASE_UNAVAILABLE_MESSAGE, undefined, false);
    });
  }

  private principalOf(request: KeyedRequest): Principal | undefined {
    if (request.principal) return request.principal;
    try {
      request.principal = this.keys.authenticate(request.headers[API_KEY_HEADER]);
      return request.principal;
    } catch {
      return undefined;
    }
  }

  /** Past the cap a new key is refused (429), never an older one evicted: a stored answer stays a promise (P122). */
  private async overCap(caller: string, existing: KeyRecord | null, now: Date): Promise<boolean> {
    const live = await this.store.countLive(caller, now);
    const stillCounted = existing && existing.expiresAt.getTime() > now.getTime() ? 1 : 0;
    return live - stillCounted >= this.config.idempotencyKeysPerCaller;
  }

  private replay(surface: WriteSurface, reply: KeyedReply, body: unknown, answer: StoredAnswer): KeyedReply {
    reply.code(answer.status);
    for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
    reply.header(REPLAYED_HEADER, 'true');
    return reply.send(replayBody(surface, answer, body));
  }

  /**
   * Stores what the request answered if it may have written, else gives the key back. A write
   * answered 503 at its deadline (P123) waits for its handler instead: the record keeps the key
   * in flight (a retry meanwhile gets 409) and ends with the answer the write turned out to have.
   */
  private async finish(surface: WriteSurface, request: KeyedRequest, id: string, owner: string, sent: StoredAnswer): Promise<void> {
    const late = lateAnswerOf(request.raw);
    const abandoned = late !== undefined && (surface === WriteSurface.GRAPHQL || sent.status === 503);
    const answer = abandoned ? await late : answerWrote(surface, sent) ? sent : null;
    for (let attempt = 1; ; attempt++) {
      try {
        if (answer) await this.store.complete(id, owner, answer);
        else await this.store.release(id, owner);
        return;
      } catch (error) {
        // The database is away: the record stays in flight (409 to a retry) and frees itself
        // at its lock's end (IDEMPOTENCY_LOCK_MS) if this never gets through.
        if (attempt >= FINISH_ATTEMPTS) {
          this.logger.warn(`could not record the answer of ${IDEMPOTENCY_KEY_HEADER} ${id}: ${(error as Error).message}`);
          return;
        }
        await sleep(100 * 2 ** attempt);
      }
    }
  }
}
