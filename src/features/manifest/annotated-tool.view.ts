import { CascadeTraceView } from '../../shapes/cascade-trace.view';
import { ToolStatus } from '../../shapes/enums.registration';
import { NULLABLE_STRING, ViewField, ViewType, enumView } from '../../shapes/view-field';

/**
 * One tool as the LLM of one caller reads it this turn: the GraphQL twin of an entry of
 * `POST /v1/manifest/annotate`'s `tools` (P171), for the operator console's "what does this
 * caller see" (D26).
 */
@ViewType(
  'AnnotatedTool',
  'One tool as the LLM of a caller reads it this turn, with the reason (as POST /v1/manifest/annotate answers it).',
)
export class AnnotatedToolGraphView {
  @ViewField('The tool, e.g. "jira_search".') name: string;
  @ViewField('The description given, with the suffix in parentheses when there is one: the line the LLM reads.') description: string;
  @ViewField('The suffix alone (e.g. "unavailable since 14:00"); null = none (OK, RETESTING).', NULLABLE_STRING) suffix: string | null;
  @ViewField('The effective status in this context.', enumView(ToolStatus, 'ToolStatus')) status: ToolStatus;
  @ViewField('DOWN or DEGRADED whose expected recovery has passed: listed plainly, the next call tries it.') retesting: boolean;
  @ViewField('DOWN and not RETESTING: listed so the LLM knows it exists, not to be called.') doNotCall: boolean;
  @ViewField('What the LLM is told to do about it; null = nothing.', NULLABLE_STRING) hint: string | null;
  @ViewField('Why: the matched entry, by whom, since and until when, what it shadowed.', {
    type: () => CascadeTraceView,
    openapi: { type: CascadeTraceView },
  })
  reason: CascadeTraceView;
}
