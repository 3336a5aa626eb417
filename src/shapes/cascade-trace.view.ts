import { CascadeMatch, CascadeTrace, ShadowedEntry } from '../domain/cascade-trace';
import { CascadeReason, Scope, ToolErrorCode, ToolStatus } from './enums.registration';
import { INSTANT, NULLABLE_STRING, ViewField, ViewType, enumView } from './view-field';

// Why a tool reads as it does (issue 4, D20): one class per shape for REST and GraphQL (P115).
// Each implements its domain shape, and toCascadeTraceView hands the domain trace on as the view,
// so a field either side lacks fails `tsc`.

const SCOPE = enumView(Scope, 'Scope');
const SCOPE_ID = 'The id of the session, user, project or tenant; null for GLOBAL.';

@ViewType('CascadeMatch', 'The entry that decided the effective status, reduced to what a reader needs to trust it.')
export class CascadeMatchView implements CascadeMatch {
  @ViewField('Who the entry is about: one SESSION, USER, PROJECT or TENANT, or everyone (GLOBAL).', SCOPE) scope: Scope;
  @ViewField(SCOPE_ID, NULLABLE_STRING) scopeId: string | null;
  @ViewField("Who decided: the pin's author for a pin, else the last diagnosis's; null when unknown.", NULLABLE_STRING) by: string | null;
  @ViewField('Since when the effective status holds.', INSTANT) since: Date;
  @ViewField("The pin's end for a pin, else the expected recovery time; null when not estimated.", { ...INSTANT, nullable: true })
  until: Date | null;
  @ViewField('Whether an admin pin decides the entry right now.') pinned: boolean;
  @ViewField('What the dispatch saw when the tool failed, if anything.', { ...enumView(ToolErrorCode, 'ToolErrorCode'), nullable: true })
  code: ToolErrorCode | null;
}

@ViewType('ShadowedEntry', 'A wider entry with a problem or a pin that the winner hid (status as stored).')
export class ShadowedEntryView implements ShadowedEntry {
  @ViewField('Who the entry is about: one SESSION, USER, PROJECT or TENANT, or everyone (GLOBAL).', SCOPE) scope: Scope;
  @ViewField(SCOPE_ID, NULLABLE_STRING) scopeId: string | null;
  @ViewField('The status of the hidden entry.', enumView(ToolStatus, 'ToolStatus')) status: ToolStatus;
}

@ViewType('CascadeTrace', 'Like a feature flag evaluation reason: why the tool reads as it does.')
export class CascadeTraceView implements CascadeTrace {
  @ViewField('Why the tool reads as it does: which rule decided.', enumView(CascadeReason, 'CascadeReason')) reason: CascadeReason;
  @ViewField('The entry that decided; null for the default OK (no problem entry).', {
    type: () => CascadeMatchView,
    nullable: true,
    openapi: { type: CascadeMatchView },
  })
  matched: CascadeMatchView | null;
  @ViewField('Wider problem or pinned entries the deciding entry hid, narrow to wide.', {
    type: () => [ShadowedEntryView],
    openapi: { type: [ShadowedEntryView] },
  })
  shadowed: ShadowedEntryView[];
  @ViewField("The call evaluation's steps in words: its reach (bounded by a pin), what governs it, maintenance in reach, back-at.", {
    type: () => [String],
    openapi: { type: [String] },
  })
  why: string[];
}

/** The domain trace already has the view's shape; `tsc` holds the two together here. */
export function toCascadeTraceView(trace: CascadeTrace): CascadeTraceView {
  return trace;
}
