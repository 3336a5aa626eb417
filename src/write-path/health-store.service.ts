import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock } from '../runtime/clock';
import { DomainError } from '../domain/domain-error';
import { AppConfig } from '../config/app-config';
import { HealthReducer, atNextVersion } from '../domain/health-entry';
import { encodeKey } from '../domain/health-key';
import { documentTenant } from '../domain/scope-of-evidence';
import { HealthKey, ToolHealthDocument } from '../domain/tool-health-document';
import { deletedEvent, healthEventsOf } from '../domain/health-events';
import { storedEventsOf, withStoredEvents } from '../domain/stored-events';
import { EventRelayRepository } from '../persistence/health-events/event-relay.repository';
import { ToolHealthAdminRepository } from '../persistence/tool-health/tool-health-admin.repository';
import { EventRelay } from './event-relay.service';
import { stagingInstant } from './staging-instant';
import { TenantSettingsRepository } from '../persistence/tenant-settings/tenant-settings.repository';
import { MutationResult, ToolHealthRepository } from '../persistence/tool-health/tool-health.repository';

/** What every reducer factory needs to know about the moment and the tenant. */
export interface WriteEnvironment {
  now: Date;
  historyLimit: number;
  graceMs: number;
}

const TENANT_SETTINGS_TTL_MS = 5_000;

/**
 * How many times a write looks up the limit of a tenant its document turned out to record. Each
 * round knows one more tenant; a document records another only if it was deleted and made again
 * under another tenant in between, so a third round is already beyond what happens.
 */
const MAX_TENANT_ROUNDS = 4;

/** A document's life id (P54): random, so no coordination is needed to keep lives apart. */
function newLife(): string {
  return randomBytes(6).toString('base64url');
}

/**
 * The single write path for tool_health: resolves the tenant's history limit (D12), runs the
 * pure reducer through the repository's guarded mutate (D3), and commits the events the write
 * caused inside the document itself (D19, P53); the EventRelay moves them to the outbox.
 */
@Injectable()
export class HealthStore {
  private readonly limits = new Map<string, { value: number; until: number }>();

  constructor(
    private readonly repository: ToolHealthRepository,
    private readonly tenantSettings: TenantSettingsRepository,
    private readonly relay: EventRelay,
    private readonly relayState: EventRelayRepository,
    private readonly admin: ToolHealthAdminRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /**
   * The one write of a tool_health document. `tenantHint` is only a hint: the tenant that governs
   * the write (its history limit, D12) is the document's own — the key's for TENANT, none for
   * GLOBAL (the default), else the tenant the stored document records, and the hint only for a
   * document this write creates (D18, scope-of-evidence.ts documentTenant). `stored` is the
   * document as the caller already read it, to save that read.
   */
  async write(
    key: HealthKey,
    tenantHint: string | null,
    build: (env: WriteEnvironment) => HealthReducer,
    options: { stored?: ToolHealthDocument | null } = {},
  ): Promise<MutationResult> {
    const [{ result, emitted }] = await this.writeEach([key], tenantHint, build, options.stored);
    await this.afterWrite(result, emitted);
    return result;
  }

  /**
   * Many keys in one write (a bulk system write, D22, P159): each key's reducer built and owned as
   * `write` does — its tenant's history limit, its events committed inside it — and all of them
   * sent to the database as one bulk command. Results in the order of `keys`.
   */
  async writeMany(
    keys: readonly HealthKey[],
    tenantHint: string | null,
    build: (env: WriteEnvironment, key: HealthKey) => HealthReducer,
  ): Promise<MutationResult[]> {
    const written = await this.writeEach(keys, tenantHint, build);
    const results = written.map((w) => w.result);
    // The relay takes the written documents in one pass; what it did not relay in time is marked in one command (P97).
    const relayed = written.filter((w) => w.result.written && w.result.after && w.emitted > 0).map((w) => w.result);
    const evented = relayed.map((result) => result.after!.id);
    const created = relayed.some((result) => result.before === null);
    if (evented.length > 0 && !(await this.relay.afterWrites(evented, { created }))) await this.relayState.markPending(evented);
    await Promise.all(results.map((result) => this.markPin(result)));
    return results;
  }

  /**
   * The keys' reducers run by the repository (one key: `mutate`; more: `mutateMany`), each with
   * the history limit of the tenant its document records as read under its lock (D12, D18). The
   * limit is looked up before the write for the tenant the document most likely records (`stored`'s
   * when the caller read it, else the hint, with which documents are created). A reducer whose
   * document records another tenant writes nothing, and its key is written again once that
   * tenant's limit is known: a rare second round instead of a read of every document's tenant
   * before every write (P368).
   */
  private async writeEach(
    keys: readonly HealthKey[],
    tenantHint: string | null,
    build: (env: WriteEnvironment, key: HealthKey) => HealthReducer,
    stored?: ToolHealthDocument | null,
  ): Promise<{ result: MutationResult; emitted: number }[]> {
    const now = this.clock.now();
    const limits = new Map<string | null, number>();
    const lookUp = async (tenants: Iterable<string | null>) => {
      for (const tenant of new Set(tenants)) if (!limits.has(tenant)) limits.set(tenant, await this.historyLimitFor(tenant));
    };
    await lookUp(keys.map((key) => documentTenant(key, stored ?? null, tenantHint)));
    const done: { result: MutationResult; emitted: number }[] = new Array(keys.length);
    let pending = keys.map((_, index) => index);
    for (let round = 0; pending.length > 0; round++) {
      if (round === MAX_TENANT_ROUNDS)
        throw DomainError.conflict(`the tenant recorded by ${encodeKey(keys[pending[0]])} kept changing during the write; retry`);
      const unknown = new Map<number, string | null>();
      const items = pending.map((index) => {
        const key = keys[index];
        const reducer: HealthReducer = (current) => {
          const tenant = documentTenant(key, current, tenantHint);
          const historyLimit = limits.get(tenant);
          if (historyLimit !== undefined) return build({ now, historyLimit, graceMs: this.config.cooldownGraceMs }, key)(current);
          unknown.set(index, tenant);
          return current;
        };
        return { index, key, ...this.owned(key, tenantHint, reducer) };
      });
      const results =
        items.length === 1 ? [await this.repository.mutate(items[0].key, items[0].reducer)] : await this.repository.mutateMany(items);
      items.forEach((item, i) => {
        if (!unknown.has(item.index)) done[item.index] = { result: results[i], emitted: item.emitted() };
      });
      pending = pending.filter((index) => unknown.has(index));
      await lookUp(unknown.values());
    }
    return done;
  }

  /**
   * The reducer as the write path runs it: the tenant is the write path's (whatever the reducer or
   * its caller believed), and the write's events are committed with the document itself.
   */
  private owned(key: HealthKey, tenantHint: string | null, reducer: HealthReducer): { reducer: HealthReducer; emitted: () => number } {
    let emitted = 0;
    return {
      emitted: () => emitted,
      reducer: (current) => {
        const next = reducer(current);
        if (next === current || next === null) return next;
        const tenantId = documentTenant(key, current, tenantHint);
        const owned = next.tenantId === tenantId ? next : { ...next, tenantId };
        // The write's events are committed with the document itself, as pending events
        // the relay moves to the outbox (D19 / P53). A new document starts a new life (P54): ids never repeat.
        const prior = current ? storedEventsOf(current) : undefined;
        const life = prior?.life ?? newLife();
        const events = healthEventsOf(current, atNextVersion(owned, current), life);
        emitted = events.length;
        return withStoredEvents(owned, { life, pendingEvents: [...(prior?.pendingEvents ?? []), ...events] });
      },
    };
  }

  private async afterWrite(result: MutationResult, emitted: number): Promise<void> {
    if (!result.written || !result.after) return;
    // What this instance did not relay at once is marked, so the lease holder's pass
    // finds it without scanning every document; a pin is marked for the pin watch likewise (P97).
    if (emitted > 0 && !(await this.relay.afterWrite(result.after.id, { created: result.before === null })))
      await this.relayState.markPending([result.after.id]);
    await this.markPin(result);
  }

  private async markPin(result: MutationResult): Promise<void> {
    if (!result.written || !result.after) return;
    // Only when the pin's end is new: an unchanged pin already has its marker (one write saved per write).
    const until = result.after.pin?.until;
    if (until && until.getTime() !== result.before?.pin?.until.getTime()) await this.relayState.markPinned(result.after.id, until);
  }

  /**
   * D14 hard delete through the write path (P54): the document's last events (its pending ones
   * and DELETED) are staged BEFORE the delete, so a crash between the two loses nothing; the relay
   * publishes them once that life of the document is gone. Null when there is no such document.
   */
  async delete(key: HealthKey, by: string): Promise<ToolHealthDocument | null> {
    const id = encodeKey(key);
    const doc = await this.repository.findById(id);
    if (!doc) return null;
    const stage = (d: ToolHealthDocument) => {
      const stored = storedEventsOf(d) ?? { life: '0', pendingEvents: [] };
      return this.relayState.stageRetired({
        id: `${id}:${stored.life}`,
        docId: id,
        life: stored.life,
        stagedAt: stagingInstant(),
        events: [...stored.pendingEvents, deletedEvent(d, by, this.clock.now(), stored.life)],
      });
    };
    await stage(doc);
    const deleted = await this.admin.deleteById(id);
    if (!deleted) {
      await this.relayState.removeRetired(`${id}:${storedEventsOf(doc)?.life ?? '0'}`);
      return null;
    }
    // Written meanwhile: the DELETED event describes what was actually deleted.
    if (deleted.version !== doc.version) await stage(deleted);
    await this.relay.afterDelete();
    return deleted;
  }

  /**
   * The tenant's ring-buffer size, else the default (GLOBAL has no tenant). Cached briefly:
   * a changed limit applies to writes within a few seconds, on every instance.
   */
  async historyLimitFor(tenantId: string | null): Promise<number> {
    if (!tenantId) return this.config.historyLimitDefault;
    const now = Date.now();
    const cached = this.limits.get(tenantId);
    if (cached && cached.until > now) return cached.value;
    const settings = await this.tenantSettings.find(tenantId);
    const value = settings?.historyLimit ?? this.config.historyLimitDefault;
    this.limits.set(tenantId, { value, until: now + TENANT_SETTINGS_TTL_MS });
    return value;
  }

  /**
   * Called after this instance changed a tenant's settings, so its own writes see it at once;
   * without a tenant, every cached limit (the database changed under the instance).
   */
  forgetTenant(tenantId?: string): void {
    if (tenantId === undefined) this.limits.clear();
    else this.limits.delete(tenantId);
  }
}
