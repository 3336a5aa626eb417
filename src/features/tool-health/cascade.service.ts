import { Injectable } from '@nestjs/common';
import { Clock } from '../../runtime/clock';
import { CallEvaluation, evaluateCall } from '../../domain/call-evaluation';
import { DomainError } from '../../domain/domain-error';
import { cascadeKeys, encodeKey, validateContext, validateId, validateKey } from '../../domain/health-key';
import { CallContext, CascadeEntry, ToolHealthDocument } from '../../domain/tool-health-document';
import { MaintenanceView } from '../../domain/maintenance-window';
import { Scope } from '../../domain/scope';
import { MaintenanceService } from '../maintenance/maintenance.service';
import { EffectiveHealthView, toEffectiveHealthView } from './effective-health.view';
import { ToolHealthRepository } from '../../persistence/tool-health/tool-health.repository';
import { ToolSignals } from '../../domain/tool-signals';
import { ToolSignalsService } from '../tool-stats/tool-signals.service';

const NO_ENTRIES: ReadonlyMap<string, CascadeEntry> = new Map();

/** §9 toolHealthLookup, for one tool or a whole batch in ONE query. */
@Injectable()
export class CascadeService {
  constructor(
    private readonly repository: ToolHealthRepository,
    private readonly clock: Clock,
    private readonly maintenance: MaintenanceService,
    private readonly signals: ToolSignalsService,
  ) {}

  /** Issue 39: the signals on for a tool now, from the in-memory snapshot (no read). */
  signalsFor(toolName: string): ToolSignals | null {
    return this.signals.signalsFor(toolName);
  }

  async getEntry(key: { scope: unknown; scopeId?: unknown; toolName: unknown }): Promise<ToolHealthDocument> {
    const valid = validateKey(key);
    const doc = await this.repository.findById(encodeKey(valid));
    if (!doc)
      throw DomainError.notFound(`no health entry for ${valid.scope} ${valid.scopeId ?? ''} ${valid.toolName}`.replace(/\s+/g, ' '));
    return doc;
  }

  /** Every tool's cascade keys in one `$in` read (D3a), resolved in memory. */
  async lookupMany(toolNames: readonly string[], context: CallContext, now = this.clock.now()): Promise<CallEvaluation[]> {
    const valid = validateContext(context);
    for (const name of toolNames) validateId('toolName', name);
    const ids = toolNames.flatMap((name) => cascadeKeys(name, valid).map(encodeKey));
    const [entries, windows] = await Promise.all([this.repository.findManyByIds(ids), this.maintenance.viewsFor(toolNames, valid, now)]);
    // Each tool's one evaluation (stored evidence, pins, windows in force and ahead) (D20).
    return toolNames.map((name, i) => evaluateCall({ toolName: name, context: valid, entries, now, maintenance: windows[i] }));
  }

  /**
   * §9 manifest read: every tool's effective health and, with `wholeSession`, the session's own
   * entries (D15b), from the presence lists and one `$in` of the ids that exist (P81), with the
   * maintenance windows laid over like lookupMany. `maintenanceOf` gives the windows of any other
   * tool in this context from the same snapshot (the departed tools, P102).
   */
  async lookupManifest(
    toolNames: readonly string[],
    context: CallContext,
    wholeSession: boolean,
    now = this.clock.now(),
  ): Promise<{
    effective: CallEvaluation<CascadeEntry>[];
    sessionDocs: CascadeEntry[];
    maintenanceOf: (toolName: string) => MaintenanceView;
  }> {
    const valid = validateContext(context);
    const [entries, viewOf] = await Promise.all([
      this.repository.findManifestEntries(valid, toolNames, wholeSession),
      this.maintenance.viewsAt(now),
    ]);
    // Most tools of a turn have no stored entry at all: each of those is evaluated against no
    // entries, which spares it encoding and looking up its cascade's ids (P347).
    const stored = new Set<string>();
    for (const entry of entries.values()) stored.add(entry.toolName);
    const effective = toolNames.map((name) =>
      evaluateCall({
        toolName: name,
        context: valid,
        entries: stored.has(name) ? entries : NO_ENTRIES,
        now,
        maintenance: viewOf(name, valid),
      }),
    );
    const sessionDocs = wholeSession
      ? [...entries.values()].filter((doc) => doc.scope === Scope.SESSION && doc.scopeId === valid.sessionId)
      : [];
    return { effective, sessionDocs, maintenanceOf: (name) => viewOf(name, valid) };
  }

  async lookupView(toolName: string, context: CallContext): Promise<EffectiveHealthView> {
    const now = this.clock.now();
    const [effective] = await this.lookupMany([toolName], context, now);
    return toEffectiveHealthView(effective, now, this.signals.signalsFor(toolName));
  }

  async lookupManyView(toolNames: readonly string[], context: CallContext): Promise<EffectiveHealthView[]> {
    const now = this.clock.now();
    return (await this.lookupMany(toolNames, context, now)).map((e) => toEffectiveHealthView(e, now, this.signals.signalsFor(e.toolName)));
  }
}
