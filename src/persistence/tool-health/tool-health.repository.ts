import { HealthReducer } from '../../domain/health-entry';
import { BookkeepingFlush } from './bookkeeping-update';
import { CallContext, CascadeEntry, HealthKey, ToolHealthDocument } from '../../domain/tool-health-document';

export interface MutationResult {
  before: ToolHealthDocument | null;
  after: ToolHealthDocument | null;
  /** False when the reducer returned its input unchanged: nothing was sent to the database. */
  written: boolean;
}

/** The port (and DI token) for the tool_health collection: one method per intent. */
export abstract class ToolHealthRepository {
  abstract findById(id: string): Promise<ToolHealthDocument | null>;

  /** Many keys in ONE round trip (`{_id: {$in}}`, D3a). */
  abstract findManyByIds(ids: readonly string[]): Promise<Map<string, ToolHealthDocument>>;

  /**
   * What an event's scope reads as (D27): the entries of these ids as the cascade reads them
   * (CascadeEntry, P116), without history or cooldowns, in one round trip like findManyByIds.
   * The relay asks for the cascade of every event it publishes; after a bulk write of 200 tools
   * whole documents were ~4 KB each to decode, for fields the evaluation never reads (P376).
   */
  abstract findCascadeEntriesByIds(ids: readonly string[]): Promise<Map<string, CascadeEntry>>;

  /**
   * §9 manifest read: the stored entries of `toolNames` in the context's cascade and, with
   * `wholeSession`, every SESSION entry of the context's session (D15b). Asks only for the ids
   * the scopes' presence lists say can exist (P81), in one command (P363), instead of one `$in`
   * of every cascade key, most of which have no document. Each entry holds only what the cascade
   * and the annotation read (CascadeEntry, P116), not its history or cooldowns.
   */
  abstract findManifestEntries(
    context: CallContext,
    toolNames: readonly string[],
    wholeSession: boolean,
  ): Promise<Map<string, CascadeEntry>>;

  /**
   * Load, apply the pure reducer, write back guarded by `version`, retry on conflict (D3).
   * Writes to one key are serialised inside the process.
   */
  abstract mutate(key: HealthKey, reducer: HealthReducer): Promise<MutationResult>;

  /**
   * Many keys at once (a bulk system write, D22, P159): one read of all of them, each reducer run
   * on its document, every change sent in ONE bulk write guarded by `version` like `mutate`; a
   * document another writer changed meanwhile is written again by `mutate` (read, reduce,
   * guarded write). Results in the order of `items`; keys must be distinct.
   */
  abstract mutateMany(items: readonly { key: HealthKey; reducer: HealthReducer }[]): Promise<MutationResult[]>;

  /**
   * D10b bookkeeping of many documents in ONE unordered bulk write (P42), each update applied at
   * most once per flush id. Resolves when the database answered (a refused update is logged and
   * dropped); rejects when the answer is unknown (network, timeout): then resend the same
   * flushes.
   */
  abstract applyBookkeeping(flushes: readonly BookkeepingFlush[]): Promise<void>;

  /** Sweep candidates (D9): documents holding a cooldown that expired before `cutoff`. */
  abstract findWithCooldownExpiredBefore(cutoff: Date, limit: number): Promise<ToolHealthDocument[]>;

  /** Probe candidates (D11): DOWN without an expected recovery, last checked before `cutoff`. */
  abstract findDownUncheckedSince(cutoff: Date, limit: number): Promise<ToolHealthDocument[]>;
}
