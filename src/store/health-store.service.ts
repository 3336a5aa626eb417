import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { HealthReducer } from '../domain/health-entry';
import { encodeKey } from '../domain/health-key';
import { Scope } from '../domain/scope';
import { documentTenant } from '../domain/scope-of-evidence';
import { HealthKey, ToolHealthDocument } from '../domain/tool-health-document';
import { healthEventsOf } from '../domain/health-events';
import { HealthEventOutbox } from '../persistence/health-event.outbox';
import { TenantSettingsRepository } from '../persistence/tenant-settings.repository';
import { MutationResult, ToolHealthRepository } from '../persistence/tool-health.repository';

/** What every reducer factory needs to know about the moment and the tenant. */
export interface WriteEnvironment {
  now: Date;
  historyLimit: number;
  graceMs: number;
}

const TENANT_SETTINGS_TTL_MS = 5_000;

/**
 * The single write path for tool_health: resolves the tenant's history limit (D12), runs the
 * pure reducer through the repository's guarded mutate (D3), and appends the events the write
 * caused to the outbox (D13). The outbox insert follows the document write; a crash between
 * the two loses those events (no transactions on FerretDB) — see docs/decisions.md.
 */
@Injectable()
export class HealthStore {
  private readonly limits = new Map<string, { value: number; until: number }>();

  constructor(
    private readonly repository: ToolHealthRepository,
    private readonly tenantSettings: TenantSettingsRepository,
    private readonly outbox: HealthEventOutbox,
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
    const needsStored = key.scope !== Scope.GLOBAL && key.scope !== Scope.TENANT;
    const stored = options.stored !== undefined || !needsStored ? (options.stored ?? null) : await this.repository.findById(encodeKey(key));
    const env: WriteEnvironment = {
      now: this.clock.now(),
      historyLimit: await this.historyLimitFor(documentTenant(key, stored, tenantHint)),
      graceMs: this.config.cooldownGraceMs,
    };
    const reducer = build(env);
    const result = await this.repository.mutate(key, (current) => {
      const next = reducer(current);
      if (next === current || next === null) return next;
      // The write path owns the tenant: whatever the reducer or its caller believed.
      const tenantId = documentTenant(key, current, tenantHint);
      return next.tenantId === tenantId ? next : { ...next, tenantId };
    });
    if (result.written && result.after) await this.outbox.append(healthEventsOf(result.before, result.after));
    return result;
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

  /** Called after this instance changed a tenant's settings, so its own writes see it at once. */
  forgetTenant(tenantId: string): void {
    this.limits.delete(tenantId);
  }
}
