import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { HealthEvent } from '../domain/health-events';
import { cascadeKeys, decodeKey, encodeKey } from '../domain/health-key';
import { expandWindows, maintenanceFor } from '../domain/maintenance-window';
import { contextOfScope, scopeStatus } from '../domain/scope-status';
import { HealthKey } from '../domain/tool-health-document';
import { MaintenanceWindowRepository } from '../persistence/maintenance-windows/maintenance-window.repository';
import { ToolHealthRepository } from '../persistence/tool-health/tool-health.repository';

/**
 * Gives each event the status its scope reads as at the event's instant, and why (D27): the
 * one evaluation of a caller at that scope — its entry, the wider ones, pins, windows in force —
 * so the log, webhook bodies and Slack say what callers are told. A write knows only its own
 * document; this runs where every event passes once, as the relay publishes it (a few
 * milliseconds after the write on the lease holder), with one read of the entries of all the
 * batch's scopes and one of the windows around its instants. An entry written in between is
 * read as it is then; that write has an event of its own.
 */
@Injectable()
export class EventScopeStatus {
  constructor(
    private readonly entries: ToolHealthRepository,
    private readonly windows: MaintenanceWindowRepository,
    private readonly config: AppConfig,
  ) {}

  async apply(events: readonly HealthEvent[]): Promise<HealthEvent[]> {
    const keyed = events.map((event) => ({ event, key: toolKeyOf(event) }));
    const about = keyed.filter((k): k is { event: HealthEvent; key: HealthKey } => k.key !== null);
    if (about.length === 0) return [...events];
    const ids = new Set<string>();
    for (const { event, key } of about) {
      for (const k of cascadeKeys(key.toolName, contextOfScope(key, event.tenantId))) ids.add(encodeKey(k));
    }
    const times = about.map(({ event }) => event.at.getTime());
    const first = new Date(Math.min(...times));
    const last = new Date(Math.max(...times) + 1);
    const [docs, stored] = await Promise.all([this.entries.findManyByIds([...ids]), this.windows.findCurrent(first, last)]);
    const windows = expandWindows(stored, first, last);
    return keyed.map(({ event, key }) => {
      if (key === null) return event;
      const context = contextOfScope(key, event.tenantId);
      const maintenance = maintenanceFor(windows, key.toolName, context, event.at, this.config.maintenanceLookaheadMs);
      const { status, source } = scopeStatus(key, event.tenantId, docs, maintenance, event.at);
      return { ...event, effectiveStatus: status, effective: source };
    });
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
