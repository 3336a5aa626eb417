import { HealthEvent } from '../../domain/health-events';
import { DocumentIdWalk } from '../../database/document-id-walk';

/** Events of a tool_health document not yet in the outbox (P53). */
export interface PendingEvents {
  docId: string;
  events: HealthEvent[];
}

/**
 * A hard-deleted document's last events (P54): staged here BEFORE the document is deleted, so a
 * crash between the two cannot lose the DELETED event; the relay moves them to the outbox once
 * the document of that life is gone.
 */
export interface RetiredEvents {
  /** `<docId>:<life>`. */
  id: string;
  docId: string;
  life: string;
  events: HealthEvent[];
  /** Wall-clock ms; a staged record whose document still lives long after this was never deleted. */
  stagedAt: number;
}

/** The port for the event relay's own state: its lease, the position counter, pending and retired events. */
export abstract class EventRelayRepository {
  /** Takes or renews the named lease for `holder` until `untilMs`; false while another holder's lease runs. */
  abstract acquireLease(name: string, holder: string, nowMs: number, untilMs: number): Promise<boolean>;
  abstract releaseLease(name: string, holder: string): Promise<void>;
  /** Reserves `count` positions; returns the last one (the first is last − count + 1). */
  abstract reservePositions(count: number): Promise<number>;
  /**
   * Documents with pending events: those `docIds` (read by `_id` alone); else those whose markers
   * say so (a small collection, P97 — a marker naming a document with nothing pending is dropped
   * on the way).
   */
  abstract findPending(limit: number, docIds?: readonly string[]): Promise<PendingEvents[]>;
  /**
   * The `_id` of every tool_health document, as the presence lists name them (P81), for
   * the sweep that finds events whose marker was lost (P114). One cursor over the lists, kept open
   * between calls of `next`; `close` drops it (a walk is never resumed, a new one starts over).
   */
  abstract walkDocumentIds(): DocumentIdWalk;
  /** After writes left events pending that their own instance did not relay at once (P97); one round trip. */
  abstract markPending(docIds: readonly string[]): Promise<void>;
  /** After a write that leaves a pin on the document: the pin watch finds its end here (P97). */
  abstract markPinned(docId: string, until: Date): Promise<void>;
  /** Removes exactly these events from each document's pending list (later ones stay); one round trip. */
  abstract clearPending(relayed: readonly PendingEvents[]): Promise<void>;
  abstract stageRetired(record: RetiredEvents): Promise<void>;
  /**
   * Staged records, oldest staged first (`stagedAt`, then id): the relay gives their events
   * positions in that order, so events staged one after the other reach the log in that order (P359).
   */
  abstract findRetired(limit: number): Promise<RetiredEvents[]>;
  abstract removeRetired(id: string): Promise<void>;
  /** Ids of documents whose pin has run out by `now` (P55), oldest end first, from the pin markers (P97). */
  abstract findPinsEndedBy(now: Date, limit: number): Promise<string[]>;
  /** The marker of a pin that was handled (ended, cleared or replaced): dropped unless it moved. */
  abstract dropPinMarker(docId: string, until: Date): Promise<void>;
  /** The life of the stored document with this id, null when there is none. */
  abstract lifeOf(docId: string): Promise<string | null>;
}
