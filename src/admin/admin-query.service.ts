import { toEffectiveHealthView } from '../cascade/effective-health.view';
import { Injectable } from '@nestjs/common';
import { CascadeService } from '../cascade/cascade.service';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/app-config';
import { CooldownService } from '../cooldown/cooldown.service';
import { CASCADE_ORDER } from '../domain/scope';
import { ToolHealthDocument } from '../domain/tool-health-document';
import { ToolStatus } from '../domain/tool-status';
import { EventsService } from '../events/events.service';
import { AdminListFilter, ToolHealthAdminRepository } from '../persistence/tool-health-admin.repository';
import { ToolHealthRepository } from '../persistence/tool-health.repository';
import { TenantSettingsService } from '../tenants/tenant-settings.service';
import { HealthEventsArgs, ToolHealthsArgs } from './args/query.args';
import { idOfToolHealthCursor, toolHealthCursor } from './cursor';
import { CallContextInput, ToolHealthFilterInput } from './inputs/list.input';
import { EffectiveHealthModel } from './models/effective-health.model';
import { toHealthEventModel } from './live/health-event.mapper';
import { HealthEventConnection } from './models/health-event.model';
import { SweepCandidateModel } from './models/sweep.model';
import { TenantSettingsModel } from './models/tenant-settings.model';
import { ToolHealthConnection } from './models/tool-health-connection.model';
import { ToolOverviewModel } from './models/tool-overview.model';

const STATUSES: readonly ToolStatus[] = [ToolStatus.OK, ToolStatus.DEGRADED, ToolStatus.DOWN];

/** The admin API's reads: thin over the services of the REST API, plus the admin-only listings. */
@Injectable()
export class AdminQueryService {
  constructor(
    private readonly admin: ToolHealthAdminRepository,
    private readonly repository: ToolHealthRepository,
    private readonly cascade: CascadeService,
    private readonly cooldowns: CooldownService,
    private readonly events: EventsService,
    private readonly tenantSettings: TenantSettingsService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  getEntry(key: { scope: unknown; scopeId?: unknown; toolName: unknown }): Promise<ToolHealthDocument> {
    return this.cascade.getEntry(key);
  }

  /** One page more than asked tells whether there is a next page, without a count. */
  async toolHealths(args: ToolHealthsArgs): Promise<ToolHealthConnection> {
    const afterId = args.after ? idOfToolHealthCursor(args.after) : null;
    const docs = await this.admin.page(listFilter(args.filter), this.clock.now(), afterId, args.first + 1);
    const page = docs.slice(0, args.first);
    const edges = page.map((node) => ({ cursor: toolHealthCursor(node.id), node }));
    return {
      edges,
      pageInfo: {
        hasNextPage: docs.length > args.first,
        hasPreviousPage: Boolean(args.after),
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges.length > 0 ? edges[edges.length - 1].cursor : (args.after ?? null),
      },
    };
  }

  async effectiveHealth(toolName: string, context: CallContextInput | null | undefined): Promise<EffectiveHealthModel> {
    const now = this.clock.now();
    const [effective] = await this.cascade.lookupMany([toolName], context ?? {}, now);
    return toEffectiveHealthView(effective, now);
  }

  async toolOverview(toolName: string): Promise<ToolOverviewModel> {
    const counts = await this.admin.countByScopeAndStatus(toolName);
    const count = (match: (c: { scope: string; status: ToolStatus }) => boolean) =>
      counts.filter(match).reduce((sum, c) => sum + c.count, 0);
    return {
      toolName,
      total: count(() => true),
      byStatus: STATUSES.map((status) => ({ status, count: count((c) => c.status === status) })),
      byScope: CASCADE_ORDER.map((scope) => ({
        scope,
        total: count((c) => c.scope === scope),
        byStatus: STATUSES.map((status) => ({ status, count: count((c) => c.scope === scope && c.status === status) })),
      })),
    };
  }

  /** D9: what the next sweep deletes — entries expired longer than the grace period. */
  async cooldownsDueForSweep(limit: number): Promise<SweepCandidateModel[]> {
    const cutoff = this.clock.now().getTime() - this.config.cooldownGraceMs;
    const docs = await this.repository.findWithCooldownExpiredBefore(new Date(cutoff), limit);
    return docs.map((toolHealth) => ({
      toolHealth,
      cooldowns: toolHealth.cooldowns.filter((e) => e.nextSpawnAllowedAt.getTime() < cutoff),
    }));
  }

  dueForProbe(limit: number): Promise<ToolHealthDocument[]> {
    return this.cooldowns.dueForProbe(limit);
  }

  async healthEvents(args: HealthEventsArgs): Promise<HealthEventConnection> {
    const after = args.after ?? undefined;
    const page = await this.events.read(after, args.first + 1);
    const events = page.events.slice(0, args.first);
    const edges = events.map((event) => ({ cursor: event.position, node: toHealthEventModel(event) }));
    return {
      edges,
      pageInfo: {
        hasNextPage: page.events.length > args.first,
        hasPreviousPage: Boolean(after),
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges.length > 0 ? edges[edges.length - 1].cursor : (after ?? null),
      },
    };
  }

  tenantSettingsOf(tenantId: string): Promise<TenantSettingsModel> {
    return this.tenantSettings.get(tenantId);
  }
}

function listFilter(input: ToolHealthFilterInput | null | undefined): AdminListFilter {
  const filter: AdminListFilter = {};
  if (!input) return filter;
  if (input.scope != null) filter.scope = input.scope;
  if (input.scopeId != null) filter.scopeId = input.scopeId;
  if (input.toolName != null) filter.toolName = input.toolName;
  if (input.status != null) filter.status = input.status;
  if (input.hasActiveCooldown != null) filter.hasActiveCooldown = input.hasActiveCooldown;
  return filter;
}
