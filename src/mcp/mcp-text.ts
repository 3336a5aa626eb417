import type { EffectiveHealthView } from '../features/tool-health/effective-health.view';
import { CascadeReason } from '../domain/cascade';
import { ToolHealthDocument } from '../domain/tool-health-document';
import { DomainError, DomainErrorCode } from '../domain/domain-error';

/**
 * The text content of the MCP results (P72): what a model reads. Sentences with the facts it
 * acts on (status, until when, who said so, what was tried), not a JSON dump — the same data is in
 * structuredContent for programs.
 */

const iso = (d: Date | null | undefined): string => (d ? d.toISOString() : 'not estimated');

function where(doc: Pick<ToolHealthDocument, 'scope' | 'scopeId'>): string {
  return doc.scopeId === null ? doc.scope : `${doc.scope} ${doc.scopeId}`;
}

/** Up to `limit` history items, newest first (history is stored oldest first, D12). */
export function describeHistory(doc: ToolHealthDocument, limit = 10): string {
  if (doc.history.length === 0) return 'No history.';
  const items = doc.history
    .slice(-limit)
    .reverse()
    .map((h) => {
      const verdict = h.classification ?? 'cleared';
      return `${h.at.toISOString()} ${verdict} → ${h.status} by ${h.by}${h.note ? `: "${h.note}"` : ''}`;
    });
  const older = doc.history.length > limit ? ` (${doc.history.length - limit} older not shown; all are in structuredContent)` : '';
  return `History, newest first${older}: ${items.join('; ')}.`;
}

export function describeCooldowns(doc: ToolHealthDocument): string {
  if (doc.cooldowns.length === 0) return 'No cooldowns.';
  return `Cooldowns: ${doc.cooldowns
    .map(
      (c) =>
        `${c.errorSignature}${c.userId ? ` for user ${c.userId}` : ''} (${c.lastClassification}, ${c.hits} hits) no diagnosis before ${c.nextSpawnAllowedAt.toISOString()}`,
    )
    .join('; ')}.`;
}

export function describeEntry(doc: ToolHealthDocument): string {
  const head =
    `${doc.toolName} at ${where(doc)}: ${doc.status} since ${doc.since.toISOString()}` +
    (doc.status === 'OK' ? '.' : `, expected recovery ${iso(doc.expectedRecoveryAt)}.`);
  const last = doc.lastDiagnosis
    ? ` Last diagnosis: ${doc.lastDiagnosis.classification ?? 'cleared'} by ${doc.lastDiagnosis.by} at ${doc.lastDiagnosis.at.toISOString()}${doc.lastDiagnosis.note ? ` ("${doc.lastDiagnosis.note}")` : ''}.`
    : ' No diagnosis yet.';
  const pin = doc.pin ? ` Pinned ${doc.pin.status} until ${doc.pin.until.toISOString()} by ${doc.pin.by} ("${doc.pin.reason}").` : '';
  return `${head}${last}${pin} ${describeHistory(doc)} ${describeCooldowns(doc)}`;
}

const REASON_TEXT: Record<CascadeReason, string> = {
  [CascadeReason.DEFAULT_OK]: 'no stored problem applies to this caller (default OK)',
  [CascadeReason.LIVE_PROBLEM]: 'the narrowest live problem decides',
  [CascadeReason.PINNED]: 'an admin pin decides',
  [CascadeReason.RETESTING]: 'every problem is past its expected recovery, so the next call retests the tool',
  [CascadeReason.MAINTENANCE]: 'a scheduled maintenance window is in force',
};

/** From the view REST answers with (its `shadowed` are summaries: scope, scopeId, status). */
export function describeEffective(effective: EffectiveHealthView): string {
  const head = `${effective.toolName} for this caller: ${effective.status}${effective.retesting ? ' (retesting)' : ''} — ${REASON_TEXT[effective.reason]} (${effective.reason}).`;
  const m = effective.maintenance;
  // A window that decides is no stored entry: named as the window, not as a synthetic "diagnosis" (P104).
  const winner =
    effective.reason === CascadeReason.MAINTENANCE && m?.inForce
      ? ` Decided by: the maintenance window ${m.inForce.id} at ${where(m.inForce)}, from ${m.inForce.from.toISOString()}, scheduled by ${m.inForce.by}.`
      : effective.winner
        ? ` Decided by: ${describeEntry(effective.winner)}`
        : '';
  const hidden =
    effective.shadowed.length > 0 ? ` Wider entries it hides: ${effective.shadowed.map((d) => `${where(d)} ${d.status}`).join(', ')}.` : '';
  // Back when nothing in reach blocks (chained windows, outages the window covers), not at this window's end (D20).
  const back = effective.backAt ? `expected back at ${effective.backAt.toISOString()}` : 'end unknown';
  const window = m?.inForce
    ? ` Under maintenance ("${m.inForce.reason}"), ${back}.`
    : m?.upcoming
      ? ` Maintenance planned ${m.upcoming.from.toISOString()}–${m.upcoming.until.toISOString()} ("${m.upcoming.reason}").`
      : '';
  const why = effective.trace.why.length > 0 ? ` Why: ${effective.trace.why.join('; ')}.` : '';
  // Issue 39: evidence from recent calls, beside the status (it never changes it).
  const signals = effective.signals?.text ? ` Recent calls: ${effective.signals.text}.` : '';
  return `${head}${winner}${hidden}${window}${why}${signals}`;
}

const ERROR_ADVICE: Record<DomainErrorCode, string> = {
  [DomainErrorCode.INVALID_ARGUMENT]: 'Fix the argument and call again.',
  [DomainErrorCode.UNAUTHENTICATED]: '',
  [DomainErrorCode.FORBIDDEN]: '',
  [DomainErrorCode.NOT_FOUND]: '',
  [DomainErrorCode.CONFLICT]: 'Read the entry again and decide with its current state.',
  [DomainErrorCode.UNAVAILABLE]: 'The service could not reach its database; read the entry again shortly, then retry if needed.',
  // Refused at the HTTP edge before a tool runs: a tool result never carries these.
  [DomainErrorCode.PAYLOAD_TOO_LARGE]: '',
  [DomainErrorCode.UNSUPPORTED_MEDIA_TYPE]: '',
  // Idempotency-Key refusals (D21) are JSON-RPC errors of the HTTP hook, never a tool result.
  [DomainErrorCode.IDEMPOTENCY_KEY_MISMATCH]: '',
  [DomainErrorCode.IDEMPOTENCY_KEY_IN_FLIGHT]: '',
  [DomainErrorCode.IDEMPOTENCY_KEY_LIMIT]: '',
  [DomainErrorCode.METHOD_NOT_ALLOWED]: '',
};

/** An isError result's text: the code, the message (which names the argument), what to do. */
export function describeError(error: DomainError): string {
  return withoutCitations([`${error.code}: ${error.message.replace(/\.$/, '')}.`, ERROR_ADVICE[error.code]].filter(Boolean).join(' '));
}

/**
 * Text an MCP client shows a model or a person, without the project's rule ids ("(D17)",
 * "(P40, D3)", "(§4)"): they mean nothing outside this repository (P136). Messages shared with REST keep
 * them there; MCP strips them in this one place.
 */
export function withoutCitations(text: string): string {
  return text.replace(/ ?\((?:(?:[DP]\d+[a-z]?|§\d+(?:\.\d+)?)(?:, ?|; ?)?)+\)/g, '');
}
