import { CascadeReason } from '../../domain/cascade';
import { EffectiveSource } from '../../domain/health-events';
import { Scope } from '../../domain/scope';
import { INSTANT, NULLABLE_STRING, ViewField, ViewType, enumView } from '../../shapes/view-field';

/** Why an event's scope reads as its effectiveStatus: one class for the REST view and the GraphQL type. */
@ViewType(
  'EffectiveSource',
  "Why the event's scope reads as its effectiveStatus when the event happened: its own entry, a wider entry (a problem or a pin there), a maintenance window in force, or nothing wrong anywhere.",
)
export class EffectiveSourceView implements EffectiveSource {
  @ViewField(
    'PINNED, MAINTENANCE, LIVE_PROBLEM, RETESTING, or DEFAULT_OK when nothing in reach is wrong.',
    enumView(CascadeReason, 'CascadeReason'),
  )
  reason: CascadeReason;
  @ViewField("The scope of the entry or window that decides: the event's own or a wider one; null for DEFAULT_OK.", {
    ...enumView(Scope, 'Scope'),
    nullable: true,
  })
  scope: Scope | null;
  @ViewField('Its id (a session, user, project or tenant); null for GLOBAL and for DEFAULT_OK.', NULLABLE_STRING) scopeId: string | null;
  @ViewField("Until when it holds, where known: a pin's end, a window's end, an expected recovery.", { ...INSTANT, nullable: true })
  until: Date | null;
}
