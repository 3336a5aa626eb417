import { FailureDecision } from '../../domain/failure-check';
import { ToolSignals, signalText } from '../../domain/tool-signals';
import { ToolSignalsView, toSignalsView } from '../tool-stats/tool-stats.view';
import { FailureReason } from '../../shapes/enums.registration';
import { INSTANT, ViewField, ViewType, enumView } from '../../shapes/view-field';

@ViewType(
  'FailureCheck',
  'What a failure report would decide now for a caller, without writing anything: whether a diagnosis would be spawned, and why.',
)
export class FailureCheckView {
  @ViewField('Whether a diagnosis would be spawned.') spawn: boolean;
  @ViewField('Why it would or would not be spawned.', enumView(FailureReason, 'FailureReason')) reason: FailureReason;
  @ViewField('When a diagnosis of this error could be spawned again; null when nothing blocks it or no end is known.', {
    ...INSTANT,
    nullable: true,
  })
  retryAt: Date | null;
  @ViewField(
    'Evidence from recent call outcomes for the diagnosis, beside the status (which it never changes): failing often or slow right now; null when neither.',
    { type: () => ToolSignalsView, nullable: true, openapi: { type: ToolSignalsView } },
  )
  signals: ToolSignalsView | null;
  @ViewField("The check's steps in words: the caller's reach, what governs it, and the decision.", {
    type: () => [String],
    openapi: { type: [String] },
  })
  why: string[];
}

export function toFailureCheckView(decision: FailureDecision, signals: ToolSignals | null): FailureCheckView {
  const evidence = signalText(signals);
  return {
    spawn: decision.spawn,
    reason: decision.reason,
    retryAt: decision.retryAt,
    signals: toSignalsView(signals),
    why: evidence ? [...decision.why, `evidence from recent calls: ${evidence}`] : [...decision.why],
  };
}
