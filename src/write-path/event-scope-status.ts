import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { HealthEvent } from '../domain/health-events';
import { cascadeKeys, decodeKey, encodeKey } from '../domain/health-key';
import { MaintenanceView, expandWindows, maintenanceFor } from '../domain/maintenance-window';
import { contextOfScope, scopeStatus } from '../domain/scope-status';
import { CallContext, HealthKey } from '../domain/tool-health-document';
import { MaintenanceWindowRepository } from '../persistence/maintenance-windows/maintenance-window.repository';
import { ToolHealthRepository } from '../persistence/tool-health/tool-health.repository';

/** The windows of any tool in any context at an instant (the maintenance feature's snapshot). */
export type MaintenanceAt = (at: Date) => Promise<(toolName: string, context: CallContext) => MaintenanceView>;

/**
 * Gives each event the status its scope reads as at the event's instant, and why (D27): the
 * one evaluation of a caller at that scope — its entry, the wider ones, pins, windows in force —
 * so the log, webhook bodies and Slack say what callers are told. A write knows only its own
 * document; this runs where every event passes once, as the relay publishes it (a few
 * milliseconds after the write on the lease holder), with one read of the entries of all the
 * batch's scopes. An entry written in between is read as it is then; that write has an event of
 * its own. The windows come from the maintenance feature's snapshot, the one lookups on this
 * instance read (it registers itself, readMaintenanceWith: the write path is below the features);
 * without it, from one read of the windows around the batch's instants.
 */
@Injectable()
export class EventScopeStatus {
  private maintenanceAt: MaintenanceAt | null = null;

  constructor(
    private readonly entries: ToolHealthRepository,
    private readonly windows: MaintenanceWindowRepository,
    private readonly config: AppConfig,
  ) {}

  /** The maintenance feature's snapshot, so an event and a lookup on this instance see the same windows. */
  readMaintenanceWith(maintenanceAt: MaintenanceAt): void {
    this.maintenanceAt = maintenanceAt;
  }

  async apply(events: readonly HealthEvent[]): Promise<HealthEvent[]> {
    const keyed = events.map((event) => ({ event, key: toolKeyOf(event) }));
    const about = keyed.filter((k): k is { event: HealthEvent; key: HealthKey } => k.key !== null);
    if (about.length === 0) return [...events];
    const ids = new Set<string>();
    for (const { event, key } of about) {
      for (const k of cascadeKeys(key.toolName, contextOfScope(key, event.tenantId))) ids.add(encodeKey(k));
    }
    const [docs, maintenanceOf] = await Promise.all([
      this.entries.findCascadeEntriesByIds([...ids]),
      this.maintenanceFor(about.map((a) => a.event.at)),
    ]);
    return keyed.map(({ event, key }) => {
      if (key === null) return event;
      const context = contextOfScope(key, event.tenantId);
      const { status, source } = scopeStatus(key, event.tenantId, docs, maintenanceOf(event.at)(key.toolName, context), event.at);
      return { ...event, effectiveStatus: status, effective: source };
    });
  }

  /** The windows at each of these instants: from the snapshot, once per distinct instant; else one read around them all. */
  private async maintenanceFor(
    instants: readonly Date[],
  ): Promise<(at: Date) => (toolName: string, context: CallContext) => MaintenanceView> {
    const distinct = [...new Set(instants.map((at) => at.getTime()))];
    const maintenanceAt = this.maintenanceAt;
    if (maintenanceAt) {
      const views = new Map(await Promise.all(distinct.map(async (t) => [t, await maintenanceAt(new Date(t))] as const)));
      return (at) => views.get(at.getTime())!;
    }
    const first = new Date(Math.min(...distinct));
    const last = new Date(Math.max(...distinct) + 1);
    const windows = expandWindows(await this.windows.findCurrent(first, last), first, last);
    return (at) => (toolName, context) => maintenanceFor(windows, toolName, context, at, this.config.maintenanceLookaheadMs);
  }
}

/** The health key an event is about; null for one about no tool (a webhook endpoint disabled). */
function toolKeyOf(event: HealthEvent): HealthKey | null {
  try {
    const key = decodeKey(event.docId);
    return key.toolName === event.toolName ? key : null;
  } catch {
    return null;
  }
}
