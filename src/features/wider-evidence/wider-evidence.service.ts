import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { ToolHealthClassification } from '../../domain/classification';
import { FailureDecision, FailureReason } from '../../domain/failure-check';
import { HealthEvent } from '../../domain/health-events';
import { ToolErrorCode } from '../../domain/tool-error-code';
import { CallContext, ToolHealthDocument } from '../../domain/tool-health-document';
import { Scope } from '../../domain/scope';
import { ToolStatus } from '../../domain/tool-status';
import {
  BucketSets,
  DistinctCounts,
  EvidenceKey,
  Tally,
  WiderEvidence,
  WiderEvidenceSettings,
  MAX_IDS_PER_BUCKET,
  addBounded,
  bucketId,
  bucketStart,
  countsAsWiderEvidence,
  crossingPeriod,
  evidenceKeyId,
  evidenceKeysOf,
  judgeWiderEvidence,
  newTally,
  tallyAdd,
  tallyCounts,
  widerCoalescingKey,
} from '../../domain/wider-evidence';
import { EventRelay } from '../../write-path/event-relay.service';
import { BucketAdditions, WiderEvidenceRepository } from '../../persistence/wider-evidence/wider-evidence.repository';
import { widerEvidenceEvent } from './wider-evidence-events';

interface Sets {
  users: Set<string>;
  projects: Set<string>;
  tenants: Set<string>;
}

interface PendingBucket extends Sets {
  key: EvidenceKey;
  start: number;
}

const NO_COUNTS: DistinctCounts = Object.freeze({ users: 0, projects: 0, tenants: 0, since: null });
const newSets = (): Sets => ({ users: new Set(), projects: new Set(), tenants: new Set() });
const EMITTED_MEMORY = 10_000;

/** Adds `id` to the pending set unless stored already or the bucket is full; true when it is new there. */
function addCapped(into: Set<string>, stored: ReadonlySet<string> | readonly string[] | undefined, id: string | null | undefined): boolean {
  if (!id) return false;
  if (stored === undefined) return addBounded(into, id);
  const has = Array.isArray(stored) ? stored.includes(id) : (stored as ReadonlySet<string>).has(id);
  const size = Array.isArray(stored) ? stored.length : (stored as ReadonlySet<string>).size;
  return !has && addBounded(into, id, Math.max(0, MAX_IDS_PER_BUCKET - size));
}

/** `tool|signature|tenant|start` → `tool|signature|tenant` (bucketId's inverse; ids hold no "|"). */
function keyIdOf(bucket: string): string {
  return bucket.slice(0, bucket.lastIndexOf('|'));
}

export interface WiderEvidenceAnswer {
  evidence: WiderEvidence;
  coalescingKey: string;
}

/**
 * Issue 16 (P79): the shared, bounded count of distinct users / projects per (tool, signature),
 * per tenant and across tenants. Nothing touches the database on a failure report: the failure
 * is added to this instance's pending sets and judged against the last read of the shared
 * buckets plus everything this instance saw since. A flush (WIDER_EVIDENCE_FLUSH_MS; on
 * shutdown; at once with 0) upserts the pending sets in ONE bulk write, re-reads the window's
 * buckets of every key seen recently in ONE `_id $in` read, and writes the crossing events.
 * Exactness: one instance is exact at once; several agree after each has flushed (at most one
 * flush interval late), and the stored sets are unions, so no order of flushes loses an id.
 */
@Injectable()
export class WiderEvidenceService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(WiderEvidenceService.name);
  private readonly settings: WiderEvidenceSettings;
  private pending = new Map<string, PendingBucket>();
  /** The shared buckets as last read, by bucket id. */
  private stored = new Map<string, { start: number; sets: BucketSets }>();
  /** Per key: distinct ids over stored ∪ pending, kept incrementally (the hot path reads only this). */
  private tallies = new Map<string, Tally>();
  /** Keys seen by this instance, with the bucket start they were last seen in. */
  private active = new Map<string, { key: EvidenceKey; lastStart: number }>();
  private events: HealthEvent[] = [];
  private readonly emitted = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private refreshQueued = false;
  private lastCleanUp = 0;

  constructor(
    private readonly repository: WiderEvidenceRepository,
    private readonly relay: EventRelay,
    private readonly config: AppConfig,
  ) {
    this.settings = {
      users: config.widerEvidenceUsers,
      projects: config.widerEvidenceProjects,
      tenants: config.widerEvidenceTenants,
      buckets: config.widerEvidenceBuckets,
      bucketMs: config.widerEvidenceBucketMs,
    };
  }

  onModuleInit(): void {
    if (this.config.widerEvidenceFlushMs > 0) {
      this.timer = setInterval(
        () => void this.flush().catch((e) => this.logger.warn(`wider evidence flush failed: ${(e as Error).message}`)),
        this.config.widerEvidenceFlushMs,
      );
      this.timer.unref();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush().catch((e) => this.logger.warn(`wider evidence flush failed: ${(e as Error).message}`));
  }

  /**
   * Counts one failure that qualifies (countsAsWiderEvidence) and judges it; synchronous, no I/O.
   * `baseCoalescingKey` is the failure's own key (tool:signature).
   */
  observe(input: {
    toolName: string;
    errorSignature: string;
    context: CallContext;
    now: Date;
    status: ToolStatus | null;
    baseCoalescingKey: string;
    /** The wider scopes in the call's reach; a failure counts and is judged only there (default both) (D20). */
    scopes?: readonly Scope[];
  }): WiderEvidenceAnswer | null {
    const { toolName, errorSignature, context, now } = input;
    const scopes = input.scopes ?? [Scope.TENANT, Scope.GLOBAL];
    const start = bucketStart(now, this.settings);
    let firstSeen = false;
    for (const key of evidenceKeysOf(toolName, errorSignature, context, scopes)) {
      const id = bucketId(key, start);
      let bucket = this.pending.get(id);
      if (!bucket) this.pending.set(id, (bucket = { key, start, ...newSets() }));
      // Bounded per bucket across flushes too: what is already stored counts against the bound.
      const stored = this.stored.get(id)?.sets;
      const keyId = evidenceKeyId(key);
      const added = {
        users: addCapped(bucket.users, stored?.users, context.userId) ? [context.userId!] : [],
        projects: addCapped(bucket.projects, stored?.projects, context.projectId) ? [context.projectId!] : [],
        tenants: addCapped(bucket.tenants, stored?.tenants, context.tenantId) ? [context.tenantId!] : [],
      };
      tallyAdd(this.tallyFor(keyId), start, added);
      if (!this.active.has(keyId)) firstSeen = true;
      this.active.set(keyId, { key, lastStart: start });
    }
    // A key this instance never read: fetch the other instances' counts soon (not on this request).
    if (firstSeen && this.config.widerEvidenceFlushMs > 0) this.refreshSoon();

    const tenantId = scopes.includes(Scope.TENANT) ? (context.tenantId ?? null) : null;
    const global = scopes.includes(Scope.GLOBAL) ? this.count({ toolName, errorSignature, tenantId: null }, now) : NO_COUNTS;
    const tenant = tenantId ? { tenantId, counts: this.count({ toolName, errorSignature, tenantId }, now) } : null;
    const evidence = judgeWiderEvidence(tenant, global, this.settings);
    if (!evidence) return null;
    const coalescingKey = widerCoalescingKey(input.baseCoalescingKey, evidence);
    // The event once per window period; the check is a string lookup, the event built only once.
    const period = crossingPeriod(now, this.settings);
    const once = `${coalescingKey}|${period}`;
    if (!this.emitted.has(once)) {
      if (this.emitted.size >= EMITTED_MEMORY) this.emitted.clear();
      this.emitted.add(once);
      this.events.push(
        widerEvidenceEvent({ toolName, errorSignature, evidence, coalescingKey, status: input.status ?? ToolStatus.OK, period, at: now }),
      );
    }
    return { evidence, coalescingKey };
  }

  /**
   * The failure path's one call (issue 16): counts the failure when it qualifies — a tool fault,
   * not user-class (classified now, or hitting a user-class cooldown), not under maintenance —
   * and answers whether the evidence is wider.
   */
  report(input: {
    toolName: string;
    context: CallContext;
    code: ToolErrorCode;
    errorSignature: string;
    classification?: ToolHealthClassification | null;
    decision: FailureDecision;
    entries: ReadonlyMap<string, ToolHealthDocument>;
    now: Date;
  }): WiderEvidenceAnswer | null {
    const { decision } = input;
    const hit = decision.hit;
    const hitClassification = hit
      ? input.entries.get(hit.docId)?.cooldowns.find((e) => e.errorSignature === hit.errorSignature && e.userId === hit.userId)
          ?.lastClassification
      : null;
    const counts = countsAsWiderEvidence({
      code: input.code,
      classification: input.classification,
      hitClassification,
      underMaintenance: decision.reason === FailureReason.UNDER_MAINTENANCE,
    });
    // Under maintenance the decision names no evidence scope; beyond a pin, neither that scope (D20).
    if (!counts || decision.evidenceScopes.length === 0) return null;
    return this.observe({
      toolName: input.toolName,
      errorSignature: input.errorSignature,
      context: input.context,
      now: input.now,
      status: decision.effective.status,
      baseCoalescingKey: decision.coalescingKey,
      scopes: decision.evidenceScopes,
    });
  }

  /** With no flush interval, the counting is shared at once (tests, single-request tools). */
  async settle(): Promise<void> {
    if (this.config.widerEvidenceFlushMs === 0) await this.flush();
  }

  /** Bulk upsert of the pending sets, one read of the active keys' windows, the crossing events. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(
      () => this.flushNow(),
      () => this.flushNow(),
    );
    return this.flushing;
  }

  /** O(1) per failure: the key's tally (stored buckets as last read ∪ this instance's pending). */
  private count(key: EvidenceKey, now: Date): DistinctCounts {
    const keyId = evidenceKeyId(key);
    let tally = this.tallies.get(keyId);
    if (!tally) return { users: 0, projects: 0, tenants: 0, since: null };
    // A tally only moves forward; a clock set back (tests) rebuilds it from the buckets.
    if (bucketStart(now, this.settings) - (this.settings.buckets - 1) * this.settings.bucketMs < tally.oldest) {
      this.rebuildTallies(keyId);
      tally = this.tallyFor(keyId);
    }
    return tallyCounts(tally, now, this.settings);
  }

  private tallyFor(keyId: string): Tally {
    let tally = this.tallies.get(keyId);
    if (!tally) this.tallies.set(keyId, (tally = newTally()));
    return tally;
  }

  /** From the stored buckets as last read and the pending ones: all keys, or one. */
  private rebuildTallies(only?: string): void {
    if (only === undefined) this.tallies = new Map();
    else this.tallies.delete(only);
    for (const [id, b] of this.stored) {
      const keyId = keyIdOf(id);
      if (only === undefined || keyId === only) tallyAdd(this.tallyFor(keyId), b.start, b.sets);
    }
    for (const [id, b] of this.pending) {
      const keyId = keyIdOf(id);
      if (only === undefined || keyId === only) tallyAdd(this.tallyFor(keyId), b.start, b);
    }
  }

  /** A read only (never a write on a request's account), queued behind any flush in progress. */
  private refreshSoon(): void {
    if (this.refreshQueued) return;
    this.refreshQueued = true;
    setImmediate(() => {
      this.refreshQueued = false;
      this.flushing = this.flushing.then(
        () => this.refresh(),
        () => this.refresh(),
      );
      void this.flushing.catch((e) => this.logger.warn(`wider evidence refresh failed: ${(e as Error).message}`));
    });
  }

  private async flushNow(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    const windowMs = this.settings.buckets * this.settings.bucketMs;
    const additions: BucketAdditions[] = [...batch].map(([id, b]) => ({
      id,
      key: b.key,
      start: new Date(b.start),
      expiresAt: new Date(b.start + windowMs + this.settings.bucketMs),
      users: [...b.users],
      projects: [...b.projects],
      tenants: [...b.tenants],
    }));
    try {
      await this.repository.addToBuckets(additions);
    } catch (error) {
      this.restore(batch);
      throw error;
    }
    // What was flushed counts as stored until the re-read below replaces it.
    for (const [id, b] of batch) this.mergeStored(id, b.start, b);
    await this.refresh();

    const events = this.events;
    this.events = [];
    try {
      await this.relay.publish(events);
    } catch (error) {
      this.events.push(...events);
      throw error;
    }
    await this.cleanUp();
  }

  /** Once per window length (by the newest bucket this instance saw): drop buckets every window has left. */
  private async cleanUp(): Promise<void> {
    const windowMs = this.settings.buckets * this.settings.bucketMs;
    const newest = Math.max(...[...this.active.values()].map((a) => a.lastStart), 0);
    if (newest === 0 || newest - this.lastCleanUp < windowMs) return;
    this.lastCleanUp = newest;
    await this.repository.deleteExpired(new Date(newest - windowMs));
  }

  /** One `_id $in` read of the window's buckets of every key this instance saw recently. */
  private async refresh(): Promise<void> {
    const windowMs = this.settings.buckets * this.settings.bucketMs;

    const newest = Math.max(...[...this.active.values()].map((a) => a.lastStart), 0);
    const ids: string[] = [];
    for (const [keyId, a] of this.active) {
      // A key unseen for a whole window has nothing left to count.
      if (a.lastStart + windowMs <= newest) {
        this.active.delete(keyId);
        continue;
      }
      for (let i = 0; i < this.settings.buckets; i++) ids.push(bucketId(a.key, newest - i * this.settings.bucketMs));
    }
    const found = await this.repository.findBuckets(ids);
    const next = new Map<string, { start: number; sets: BucketSets }>();
    // As Sets: the hot path asks "already stored?" of them.
    for (const b of found)
      next.set(b.id, { start: b.start, sets: { users: new Set(b.users), projects: new Set(b.projects), tenants: new Set(b.tenants) } });
    this.stored = next;
    this.rebuildTallies();
  }

  private mergeStored(id: string, start: number, sets: Sets): void {
    const current = this.stored.get(id);
    const merged = newSets();
    for (const source of [current?.sets, sets]) {
      if (!source) continue;
      for (const u of source.users) merged.users.add(u);
      for (const p of source.projects) merged.projects.add(p);
      for (const t of source.tenants) merged.tenants.add(t);
    }
    this.stored.set(id, { start, sets: merged });
  }

  private restore(batch: Map<string, PendingBucket>): void {
    for (const [id, b] of batch) {
      const into = this.pending.get(id);
      if (!into) {
        this.pending.set(id, b);
        continue;
      }
      for (const u of b.users) addBounded(into.users, u);
      for (const p of b.projects) addBounded(into.projects, p);
      for (const t of b.tenants) addBounded(into.tenants, t);
    }
  }
}
