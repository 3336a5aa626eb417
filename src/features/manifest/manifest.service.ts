import { Injectable } from '@nestjs/common';
import { CascadeService } from '../tool-health/cascade.service';
import { Clock } from '../../runtime/clock';
import { AGRAJAG_TOOLS } from '../diagnoses/agrajag-tools';
import { AnnotatedTool, annotateTool, departedClientTools, isPlainlyUsable } from '../../domain/annotation';
import { FilterReason, FilteredTool, ToolManifest, filterAudience } from '../../domain/audience';
import { CallEvaluation, evaluateCall } from '../../domain/call-evaluation';
import { CascadeEntry } from '../../domain/tool-health-document';
import { assertTimeZone } from '../../domain/clock-format';
import { DomainError } from '../../domain/domain-error';
import { explainUnknownTool } from '../../domain/explain';
import { ID_PATTERN, validateContext } from '../../domain/health-key';
import {
  AnnotateChangesDto,
  AnnotateManifestDto,
  AnnotatedChangesView,
  AnnotatedManifestView,
  AnnotatedToolView,
  DEFAULT_TIME_ZONE,
  FilteredSummaryView,
  ManifestToolRefDto,
  ToolChangeView,
} from './annotate.dto';
import { toCascadeTraceView } from '../../shapes/cascade-trace.view';
import { ExplainToolDto, ExplanationView } from './explain.dto';
import { AnnotatedToolArgs } from './annotated-tool.args';

/** A manifest entry plus the argument schema when this service supplied the tool itself. */
interface ManifestEntry extends ToolManifest {
  inputSchema: Record<string, unknown> | null;
  /** False when the caller left the description out (annotation by difference, D23). */
  described: boolean;
}

/** One turn read and evaluated: what the full answer and the answer by difference are both made of. */
interface EvaluatedTurn {
  visible: ManifestEntry[];
  effective: CallEvaluation<CascadeEntry>[];
  departed: AnnotatedToolView[];
  filtered: FilteredSummaryView;
  now: Date;
  timeZone: string;
}

/**
 * §9 read path (D15, D15b) and D16's honest "unknown tool". Stateless: the caller sends the
 * turn's manifest; the pure rules live in src/domain (audience, annotation, explain), this only
 * gathers their input in as few reads as possible.
 */
@Injectable()
export class ManifestService {
  constructor(
    private readonly cascade: CascadeService,
    private readonly clock: Clock,
  ) {}

  /** §9: every visible tool, in input order, as the LLM will see it this turn. */
  async annotate(dto: AnnotateManifestDto): Promise<AnnotatedManifestView> {
    const turn = await this.evaluateTurn(dto, dto.tools);
    const tools = turn.visible.map((tool, i) =>
      toView(annotateTool(tool, turn.effective[i], turn.now, turn.timeZone, this.cascade.signalsFor(tool.name)), tool.inputSchema),
    );
    return { tools, departed: turn.departed, filtered: turn.filtered };
  }

  /**
   * The same turn by difference — only the visible tools that are not plainly usable, each
   * exactly as `annotate` lists it, and how many are plain (D23). A plain tool costs its evaluation and
   * nothing more: no trace, no view, no bytes.
   */
  async annotateChanges(dto: AnnotateChangesDto): Promise<AnnotatedChangesView> {
    const turn = await this.evaluateTurn(dto, dto.tools);
    const tools: ToolChangeView[] = [];
    turn.visible.forEach((tool, i) => {
      // Issue 39: the signals from the in-memory snapshot, a map lookup per tool (no read).
      const signals = this.cascade.signalsFor(tool.name);
      if (isPlainlyUsable(turn.effective[i], turn.now, turn.timeZone, signals)) return;
      const view = toView(annotateTool(tool, turn.effective[i], turn.now, turn.timeZone, signals), tool.inputSchema);
      tools.push({ ...view, description: tool.described ? view.description : null, reason: dto.includeReasons ? view.reason : null });
    });
    return { tools, plain: turn.visible.length - tools.length, departed: turn.departed, filtered: turn.filtered };
  }

  /**
   * The effective entries of every visible tool and — with a session and outside a probe turn —
   * the session's own entries (D15b), from ONE manifest read (P81: the scopes' presence lists
   * and only the ids they say can exist, one command, P363), resolved in memory.
   */
  private async evaluateTurn(
    dto: Omit<AnnotateManifestDto | AnnotateChangesDto, 'tools' | 'includeReasons'>,
    tools: readonly (ToolManifest | ManifestToolRefDto)[],
  ): Promise<EvaluatedTurn> {
    const timeZone = dto.timeZone ?? DEFAULT_TIME_ZONE;
    assertTimeZone(timeZone);
    const context = validateContext(dto.context ?? {});
    const probeTurn = dto.probeTurn ?? false;
    const { manifest, names: inputNames } = mergeManifest(tools, dto.includeAgrajagTools ?? false);
    const { visible, filtered } = filterAudience(manifest, dto.engineRoles ?? [], probeTurn);

    const now = this.clock.now();
    // Departed tools carry no safety marker, so a probe turn (SAFE_PROBE only) never lists them.
    const sessionId = context.sessionId ?? null;
    const { effective, sessionDocs, maintenanceOf } = await this.cascade.lookupManifest(
      visible.map((tool) => tool.name),
      context,
      sessionId !== null && !probeTurn,
      now,
    );
    // Every name the caller sent counts as present (inputNames), filtered ones too: a tool hidden
    // from this engine by its roles has not left with its client.
    // A departed tool reads its maintenance windows as the cascade would, from the same snapshot (P102).
    const departed = departedClientTools(sessionDocs, inputNames, now, timeZone, maintenanceOf).map((tool) => toView(tool, null));
    return { visible, effective, departed, filtered: summarise(filtered), now, timeZone };
  }

  /** One tool of a manifest, for the console's "what does this caller see" (P171): the same path as annotate. */
  async annotateOne(args: AnnotatedToolArgs): Promise<AnnotatedToolView> {
    const { tools } = await this.annotate({
      tools: [{ name: args.toolName, description: args.description ?? '' }],
      context: args.context ?? undefined,
      timeZone: args.timeZone ?? undefined,
    });
    return tools[0];
  }

  /** D16, from one cascade read (none for a name no entry can have). */
  async explain(dto: ExplainToolDto): Promise<ExplanationView> {
    const timeZone = dto.timeZone ?? DEFAULT_TIME_ZONE;
    assertTimeZone(timeZone);
    const context = validateContext(dto.context ?? {});
    const now = this.clock.now();
    // A name outside the D3a character set (an LLM's invention) can have no stored entry: its
    // cascade is empty by construction, so it is judged without a read instead of refused.
    const [effective] = ID_PATTERN.test(dto.toolName)
      ? await this.cascade.lookupMany([dto.toolName], context, now)
      : [evaluateCall({ toolName: dto.toolName, context, entries: [], now })];
    const explanation = explainUnknownTool({ toolName: dto.toolName, registryKnows: dto.registryKnows, effective, now, timeZone });
    return { ...explanation, trace: toCascadeTraceView(explanation.trace) };
  }
}

/**
 * The caller's tools in input order, then (when asked) the service's own Agrajag tools, with the
 * set of their names (the check for duplicates builds it anyway). Names must be unique across
 * both: two entries for one name leave it unclear which the LLM sees.
 */
function mergeManifest(
  tools: readonly (ToolManifest | ManifestToolRefDto)[],
  includeAgrajagTools: boolean,
): { manifest: ManifestEntry[]; names: ReadonlySet<string> } {
  const merged: ManifestEntry[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) throw DomainError.invalid('tools', `duplicate tool name ${tool.name}`);
    seen.add(tool.name);
    merged.push({
      name: tool.name,
      description: tool.description ?? '',
      safety: tool.safety,
      requiresEngineRoles: tool.requiresEngineRoles,
      inputSchema: null,
      described: tool.description !== undefined && tool.description !== null,
    });
  }
  if (!includeAgrajagTools) return { manifest: merged, names: seen };
  for (const tool of AGRAJAG_TOOLS) {
    if (seen.has(tool.name)) {
      throw DomainError.invalid(
        'tools',
        `${tool.name} is one of the service's Agrajag tools; leave it out when includeAgrajagTools is set`,
      );
    }
    seen.add(tool.name);
    merged.push({
      name: tool.name,
      description: tool.description,
      safety: tool.safety,
      requiresEngineRoles: [...tool.requiresEngineRoles],
      inputSchema: tool.inputSchema,
      described: true,
    });
  }
  return { manifest: merged, names: seen };
}

/** Field by field rather than a spread: it runs for every tool of every turn (P116). */
function toView(tool: AnnotatedTool, inputSchema: Record<string, unknown> | null): AnnotatedToolView {
  return {
    name: tool.name,
    description: tool.description,
    suffix: tool.suffix,
    status: tool.status,
    retesting: tool.retesting,
    doNotCall: tool.doNotCall,
    hint: tool.hint,
    reason: toCascadeTraceView(tool.reason),
    inputSchema,
  };
}

function summarise(filtered: FilteredTool[]): FilteredSummaryView {
  const byReason = Object.fromEntries(Object.values(FilterReason).map((reason) => [reason, 0])) as Record<FilterReason, number>;
  for (const tool of filtered) byReason[tool.reason]++;
  return { count: filtered.length, byReason, tools: filtered.map(({ name, reason }) => ({ name, reason })) };
}
