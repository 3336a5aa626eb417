import { ToolManifest } from './audience';
import { CallEvaluation, evaluateCall, whyOf } from './call-evaluation';
import { CascadeReason, EffectiveHealth, isKnownDown } from './cascade';
import { CascadeTrace, effectiveSince, explainCascade } from './cascade-trace';
import { formatClock } from './clock-format';
import { encodeKey } from './health-key';
import { MaintenanceView } from './maintenance-window';
import { Scope } from './scope';
import { CascadeEntry } from './tool-health-document';
import { ToolStatus } from './tool-status';
import { ToolSignals, signalText } from './tool-signals';

/** The recipe hint of §9 for a tool that is DOWN and not RETESTING. */
export const DO_NOT_CALL_HINT = 'do not call, plan without it';

const MINUTE_MS = 60_000;

/** One manifest entry as the LLM will see it this turn (§9, D15). */
export interface AnnotatedTool {
  name: string;
  /** The original description with the suffix appended (see withSuffix). */
  description: string;
  suffix: string | null;
  status: ToolStatus;
  retesting: boolean;
  /** DOWN and not RETESTING: listed so the LLM knows the tool exists, but not to be called. */
  doNotCall: boolean;
  hint: string | null;
  reason: CascadeTrace;
}

/**
 * The §9 description suffix, or null. Cooldowns never appear: the LLM should still use a tool
 * in cooldown, only the diagnosis is skipped. RETESTING gets none (D5): the next call tries it.
 */
export function annotationSuffix(
  effective: CallEvaluation<CascadeEntry>,
  now: Date,
  timeZone: string,
  signals: ToolSignals | null = null,
): string | null {
  // Issue 16 (P75): a window in force or coming rewrites or extends the stored suffix.
  return withSignals(effective, maintenanceSuffix(effective, now, timeZone, storedSuffix(effective, now, timeZone)), signals);
}

/**
 * Issue 39: the signals in words after the rest ("slow right now — about 9 s per call, usually
 * about 1 s"), so the LLM can weigh a tool that works but badly. Not for a tool it is told not to
 * call, nor one under maintenance: there the calls' speed is no news.
 */
function withSignals(effective: CallEvaluation<CascadeEntry>, suffix: string | null, signals: ToolSignals | null): string | null {
  const text = signalText(signals);
  if (text === null || isKnownDown(effective) || effective.reason === CascadeReason.MAINTENANCE) return suffix;
  return suffix === null ? text : `${suffix}; ${text}`;
}

function storedSuffix(effective: CallEvaluation<CascadeEntry>, now: Date, timeZone: string): string | null {
  if (effective.status === ToolStatus.OK || effective.retesting) return null;
  if (effective.status === ToolStatus.DEGRADED) {
    const winner = effective.winner;
    const lastFailure = winner?.lastFailureAt ?? winner?.since ?? now;
    // At least 1: "0 min ago" reads as "not failing"; a clock-skewed future instant too.
    const minutes = Math.max(1, Math.floor((now.getTime() - lastFailure.getTime()) / MINUTE_MS));
    return `intermittent — last failure ${minutes} min ago, retry tolerated`;
  }
  // The evaluation's back-at — the first instant nothing in reach blocks the call (D20).
  const back = effective.backAt.at;
  if (back) return `currently unavailable — expected back at ${formatClock(back, now, timeZone)}`;
  return `unavailable since ${formatClock(effectiveSince(effective) ?? now, now, timeZone)}`;
}

/**
 * The annotation's suffix with the windows (§9 + issue 16): in force, "under maintenance —
 * expected back at HH:MM"; coming, the stored status's own suffix (or none) followed by
 * "maintenance planned HH:MM–HH:MM". `stored` is the suffix without windows.
 */
function maintenanceSuffix(effective: CallEvaluation<CascadeEntry>, now: Date, timeZone: string, stored: string | null): string | null {
  if (effective.reason === CascadeReason.MAINTENANCE) {
    // Back when nothing in reach blocks — chained windows, and the outages the window covers (D20).
    const back = effective.backAt.at;
    return back ? `under maintenance — expected back at ${formatClock(back, now, timeZone)}` : 'under maintenance — end unknown';
  }
  const range = plannedRange(effective, now, timeZone);
  if (range === null) return stored;
  const planned = `maintenance planned ${range}`;
  return stored === null ? planned : `${stored}; ${planned}`;
}

/** "HH:MM–HH:MM" of the window coming within the lookahead, else null (P75; P78 rendering). */
export function plannedRange(effective: EffectiveHealth<CascadeEntry>, now: Date, timeZone: string): string | null {
  const upcoming = effective.maintenance?.upcoming;
  if (!upcoming) return null;
  return `${formatClock(upcoming.from, now, timeZone)}–${formatClock(upcoming.until, now, timeZone)}`;
}

/**
 * "Reads a file. (unavailable since 14:00)": the suffix in parentheses after the original text
 * (trailing whitespace trimmed), so the tool's own wording stays intact and the note is
 * recognisable. A tool with no description gets the bare suffix: nothing to set it apart from.
 */
export function withSuffix(description: string, suffix: string | null): string {
  if (suffix === null) return description;
  const base = description.trimEnd();
  return base === '' ? suffix : `${base} (${suffix})`;
}

export function annotateTool(
  manifest: ToolManifest,
  effective: CallEvaluation<CascadeEntry>,
  now: Date,
  timeZone: string,
  signals: ToolSignals | null = null,
): AnnotatedTool {
  if (effective.toolName !== manifest.name) {
    throw new Error(`annotateTool: health of ${effective.toolName} given for ${manifest.name}`);
  }
  const suffix = annotationSuffix(effective, now, timeZone, signals);
  const doNotCall = isKnownDown(effective);
  return {
    name: manifest.name,
    description: withSuffix(manifest.description, suffix),
    suffix,
    status: effective.status,
    retesting: effective.retesting,
    doNotCall,
    hint: doNotCall ? DO_NOT_CALL_HINT : null,
    reason: explainCascade(effective, whyOf(effective)),
  };
}

/**
 * Whether the LLM may see a tool exactly as the caller already describes it — no suffix and
 * not "do not call" (OK, a cooldown only, RETESTING) (D23). Annotation by difference leaves these out
 * and only counts them; everything else (a suffix, do-not-call) is listed as annotateTool reads it.
 */
export function isPlainlyUsable(
  effective: CallEvaluation<CascadeEntry>,
  now: Date,
  timeZone: string,
  signals: ToolSignals | null = null,
): boolean {
  return !isKnownDown(effective) && annotationSuffix(effective, now, timeZone, signals) === null;
}

/**
 * Client tools that left with their client (D15b). The caller no longer sends them, but the LLM
 * must still learn they exist and are down (§1 problem 1), so each SESSION entry that is DOWN
 * and not RETESTING (a pin counts) and is missing from the input is listed with the description
 * stored at disconnect. Rendered like any other DOWN entry, which for a disconnect (no estimate)
 * is "unavailable since HH:MM". Sorted by name for a stable manifest.
 * Which entries departed is the stored evidence's answer; how each reads is the cascade's
 * with the maintenance windows laid over (withMaintenance, P75): a window in force at SESSION
 * scope beats the disconnect ("under maintenance — expected back at …"), a wider one does not
 * (the narrower disconnect wins, as in the cascade), and a coming one is appended (P102).
 */
export function departedClientTools(
  sessionDocs: readonly CascadeEntry[],
  inputNames: ReadonlySet<string>,
  now: Date,
  timeZone: string,
  maintenanceOf: (toolName: string) => MaintenanceView | null = () => null,
): AnnotatedTool[] {
  const departed: AnnotatedTool[] = [];
  for (const doc of sessionDocs) {
    if (doc.scope !== Scope.SESSION || doc.scopeId === null || inputNames.has(doc.toolName)) continue;
    // The entry judged on its own, exactly as the cascade judges it (pins, RETESTING).
    const context = { sessionId: doc.scopeId };
    const entries = new Map([[encodeKey(doc), doc]]);
    if (!isKnownDown(evaluateCall({ toolName: doc.toolName, context, entries, now }))) continue;
    const effective = evaluateCall({ toolName: doc.toolName, context, entries, now, maintenance: maintenanceOf(doc.toolName) });
    departed.push(annotateTool({ name: doc.toolName, description: doc.description ?? '' }, effective, now, timeZone));
  }
  return departed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
