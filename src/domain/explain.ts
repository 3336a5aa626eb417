import { annotationSuffix, plannedRange } from './annotation';
import { CallEvaluation, whyOf } from './call-evaluation';
import { CascadeReason, isKnownDown } from './cascade';
import { CascadeTrace, effectiveSince, explainCascade } from './cascade-trace';
import { formatClock } from './clock-format';
import { Scope } from './scope';
import { ToolErrorCode, isToolFault } from './tool-error-code';
import { ToolHealthDocument } from './tool-health-document';

export interface ExplainInput {
  toolName: string;
  /** Whether any source of the registry serves the name right now. */
  registryKnows: boolean;
  /** The call's evaluation (D20): explain shows its trace. */
  effective: CallEvaluation;
  now: Date;
  timeZone: string;
}

export interface Explanation {
  /** null when the tool can be called. */
  code: ToolErrorCode | null;
  /** Callable now: the registry serves it and it is not known DOWN. */
  usable: boolean;
  /** For the LLM, in place of the bare "Unknown tool: <name>". */
  message: string;
  trace: CascadeTrace;
}

/**
 * Answer "Unknown tool" honestly (D16). NOT_REGISTERED only when neither the registry nor the
 * health store knows the name in this context; a tool that left with its client, or whose
 * backend is down, is explained as such, with when and for how long.
 */
export function explainUnknownTool(input: ExplainInput): Explanation {
  const { toolName, registryKnows, effective, now, timeZone } = input;
  const trace = explainCascade(effective, whyOf(effective));
  // A window coming within the lookahead is named in every answer, rendered as in the annotation (P103).
  const planned = plannedRange(effective, now, timeZone);
  const plannedSentence = planned === null ? '' : ` Maintenance is planned ${planned}.`;

  if (isKnownDown(effective)) {
    const winner = effective.winner!;
    const maintenance = effective.reason === CascadeReason.MAINTENANCE;
    const code = downCode(winner, registryKnows, maintenance);
    // A window at SESSION scope is maintenance, not a disconnect: its own wording below.
    if (!maintenance && winner.scope === Scope.SESSION && code === ToolErrorCode.BACKEND_UNREACHABLE) {
      const since = formatClock(effectiveSince(effective) ?? now, now, timeZone);
      return {
        code,
        usable: false,
        message: `Tool ${toolName} is temporarily unreachable since ${since} (the client disconnected); do not call it until it reconnects.${plannedSentence}`,
        trace,
      };
    }
    const how = maintenance ? 'scheduled maintenance' : effective.reason === CascadeReason.PINNED ? 'pinned DOWN by an admin' : 'DOWN';
    // The suffix already names a coming window ("…; maintenance planned …").
    return {
      code,
      usable: false,
      message: `Tool ${toolName} is ${annotationSuffix(effective, now, timeZone)} (${how} at ${winner.scope} scope); do not call it, plan without it.`,
      trace,
    };
  }

  if (registryKnows) {
    const suffix = annotationSuffix(effective, now, timeZone);
    const note = effective.retesting
      ? ` (retesting: the next call tries it${planned === null ? '' : `; maintenance planned ${planned}`})`
      : suffix
        ? ` (${suffix})`
        : '';
    return { code: null, usable: true, message: `Tool ${toolName} is available${note}.`, trace };
  }

  if (effective.considered.length === 0 && planned === null) {
    return { code: ToolErrorCode.NOT_REGISTERED, usable: false, message: `Unknown tool: ${toolName}`, trace };
  }

  if (effective.considered.length === 0) {
    // No stored entry, but an admin scheduled maintenance for the name: it is known, not unknown (P103).
    return {
      code: ToolErrorCode.BACKEND_UNREACHABLE,
      usable: false,
      message: `Tool ${toolName} is currently not reachable; do not call it now.${plannedSentence}`,
      trace,
    };
  }

  // Known to the health store but served by no source now: its backend went away without a
  // DOWN write (or one that has since cleared). Not "unknown", and not callable either.
  return {
    code: ToolErrorCode.BACKEND_UNREACHABLE,
    usable: false,
    message: `Tool ${toolName} was registered before but is currently not reachable; do not call it now.${plannedSentence}`,
    trace,
  };
}

/**
 * The stored code when it names a tool fault. Otherwise (a system write without one, a pin over
 * an OK entry, a maintenance window): SESSION entries are client binds and a registry that no longer serves the name
 * lost its backend, so BACKEND_UNREACHABLE; a backend still registered but down, BACKEND_FAILED.
 */
function downCode(winner: ToolHealthDocument, registryKnows: boolean, maintenance: boolean): ToolErrorCode {
  if (winner.code !== null && isToolFault(winner.code)) return winner.code;
  // A window (never stored, no code) is not a client bind even at SESSION scope (P103).
  const clientBind = winner.scope === Scope.SESSION && !maintenance;
  return clientBind || !registryKnows ? ToolErrorCode.BACKEND_UNREACHABLE : ToolErrorCode.BACKEND_FAILED;
}
