import { FailureDecision } from '../../domain/failure-check';
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
  @ViewField("The check's steps in words: the caller's reach, what governs it, and the decision.", {
    type: () => [String],
    openapi: { type: [String] },
  })
  why: string[];
}

export function toFailureCheckView(decision: FailureDecision): FailureCheckView {
  return { spawn: decision.spawn, reason: decision.reason, retryAt: decision.retryAt, why: [...decision.why] };
}
