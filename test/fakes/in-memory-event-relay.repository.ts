import { DocumentIdWalk } from '../../src/database/document-id-walk';
import { HealthEvent } from '../../src/domain/health-events';
import { EventRelayRepository, PendingEvents, RetiredEvents } from '../../src/persistence/health-events/event-relay.repository';
import { BACKFILLED_MARKER } from '../../src/persistence/tool-presence/tool-presence';
import { keyInScope } from '../../src/domain/health-key';
import { InMemoryDatabase, copy } from './in-memory-database';

/**
 * EventRelayRepository in memory, over the tool_health records of `db` (pending events live in
 * the documents, P53): the lease, the position counter, the pending and pin markers (P97) and the
 * staged events of deleted documents and standalone events (P54).
 */
export class InMemoryEventRelayRepository extends EventRelayRepository {
  readonly leases = new Map<string, { holder: string; until: number }>();
  private seq = 0;
  /** P97: documents that may hold pending events. */
  readonly pendingMarkers = new Set<string>();
  /** P97: documents that hold (or held) a pin, with its end. */
  readonly pinMarkers = new Map<string, Date>();
  readonly retired = new Map<string, RetiredEvents>();

  constructor(readonly db: InMemoryDatabase = new InMemoryDatabase()) {
    super();
  }

  /** Every event staged so far (deleted documents' last events and standalone ones: maintenance, wider evidence). */
  stagedEvents(): HealthEvent[] {
    return copy([...this.retired.values()].flatMap((r) => r.events));
  }

  async acquireLease(name: string, holder: string, nowMs: number, untilMs: number): Promise<boolean> {
    const lease = this.leases.get(name);
    if (lease && lease.holder !== holder && lease.until > nowMs) return false;
    this.leases.set(name, { holder, until: untilMs });
    return true;
  }

  async releaseLease(name: string, holder: string): Promise<void> {
    if (this.leases.get(name)?.holder === holder) this.leases.delete(name);
  }

  async reservePositions(count: number): Promise<number> {
    return (this.seq += count);
  }

  async findPending(limit: number, docIds?: readonly string[]): Promise<PendingEvents[]> {
    const ids = docIds ? [...docIds] : [...this.pendingMarkers].slice(0, limit);
    if (ids.length === 0) return [];
    const pending = ids
      .filter((id) => this.db.toolHealth.has(id))
      .slice(0, limit)
      .map((docId) => ({ docId, events: copy(this.db.toolHealth.get(docId)!.pendingEvents ?? []) as HealthEvent[] }))
      .filter((p) => p.events.length > 0);
    if (!docIds) {
      const live = new Set(pending.map((p) => p.docId));
      for (const id of ids) if (!live.has(id)) this.pendingMarkers.delete(id);
    }
    return pending;
  }

  walkDocumentIds(): DocumentIdWalk {
    const ids: string[] = [];
    for (const [prefix, tools] of this.db.presence)
      if (prefix !== BACKFILLED_MARKER) for (const tool of tools) ids.push(keyInScope(prefix, tool));
    let at = 0;
    return {
      next: async (max) => {
        const slice = ids.slice(at, at + max);
        at += slice.length;
        return slice;
      },
      close: async () => undefined,
    };
  }

  async markPending(docIds: readonly string[]): Promise<void> {
    for (const id of docIds) this.pendingMarkers.add(id);
  }

  async markPinned(docId: string, until: Date): Promise<void> {
    this.pinMarkers.set(docId, new Date(until));
  }

  async dropPinMarker(docId: string, until: Date): Promise<void> {
    const marked = this.pinMarkers.get(docId);
    if (marked && marked.getTime() <= until.getTime()) this.pinMarkers.delete(docId);
  }

  async clearPending(relayed: readonly PendingEvents[]): Promise<void> {
    // Exactly these ids: events a concurrent write appended meanwhile stay; the version is untouched.
    for (const p of relayed) {
      const record = this.db.toolHealth.get(p.docId);
      if (!record?.pendingEvents) continue;
      const gone = new Set(p.events.map((e) => e.id));
      this.db.toolHealth.set(p.docId, { ...record, pendingEvents: record.pendingEvents.filter((e) => !gone.has(e.id)) });
    }
  }

  async stageRetired(record: RetiredEvents): Promise<void> {
    this.retired.set(record.id, copy(record));
  }

  async findRetired(limit: number): Promise<RetiredEvents[]> {
    const oldestFirst = [...this.retired.values()].sort((a, b) => a.stagedAt - b.stagedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return copy(oldestFirst.slice(0, limit));
  }

  async removeRetired(id: string): Promise<void> {
    this.retired.delete(id);
  }

  async findPinsEndedBy(now: Date, limit: number): Promise<string[]> {
    return [...this.pinMarkers]
      .filter(([, until]) => until.getTime() <= now.getTime())
      .sort(([, a], [, b]) => a.getTime() - b.getTime())
      .slice(0, limit)
      .map(([id]) => id);
  }

  async lifeOf(docId: string): Promise<string | null> {
    const record = this.db.toolHealth.get(docId);
    return record ? (record.life ?? '0') : null;
  }
}
