import { MAX_NOTE_LENGTH } from '../common/dto/write-fields';
import { ToolHealthClassification } from '../domain/classification';
import { ToolSafety, TOOL_HEALTH_WRITER_ROLE } from '../domain/audience';
import { ID_PATTERN_SOURCE } from '../domain/health-key';
import { Scope } from '../domain/scope';
import { ToolErrorCode } from '../domain/tool-error-code';

/** §7 third row: the four tools the Agrajag engine uses to write its verdicts. */
export enum AgrajagToolName {
  SET_UNAVAILABLE = 'tool_health_set_unavailable',
  SET_AVAILABLE = 'tool_health_set_available',
  SET_COOLDOWN = 'tool_health_set_cooldown',
  CLEAR = 'tool_health_clear',
}

export interface AgrajagToolManifest {
  name: AgrajagToolName;
  description: string;
  safety: ToolSafety.SAFE_PROBE;
  requiresEngineRoles: string[];
  /** JSON Schema (draft 2020-12 subset) of the arguments; invocations are validated against it. */
  inputSchema: Record<string, unknown>;
}

const id = { type: 'string', pattern: ID_PATTERN_SOURCE };
const key = {
  toolName: { ...id, description: 'The tool the verdict is about, e.g. "jira_search".' },
  scope: { type: 'string', enum: Object.values(Scope), description: 'Who is affected: SESSION, USER, PROJECT, TENANT or GLOBAL.' },
  scopeId: { ...id, description: 'The session, user, project or tenant id. Omit for GLOBAL.' },
};
/** The key arguments of a tool about one entry; the MCP read tools reuse them (P71). */
export const HEALTH_KEY_ARGUMENTS = key;
const note = { type: 'string', minLength: 1, maxLength: MAX_NOTE_LENGTH, description: 'What you observed, for the next diagnosis.' };
const instant = { type: 'string', format: 'date-time', description: 'An ISO 8601 instant, e.g. 2026-05-23T14:30:00Z.' };

function schema(properties: Record<string, unknown>, required: string[]): Record<string, unknown> {
  return { type: 'object', properties, required, additionalProperties: false };
}

const manifest = (name: AgrajagToolName, description: string, inputSchema: Record<string, unknown>): AgrajagToolManifest => ({
  name,
  description,
  safety: ToolSafety.SAFE_PROBE,
  requiresEngineRoles: [TOOL_HEALTH_WRITER_ROLE],
  inputSchema,
});

export const AGRAJAG_TOOLS: readonly AgrajagToolManifest[] = [
  manifest(
    AgrajagToolName.SET_UNAVAILABLE,
    'Record that a tool is not usable. TECHNICALLY_BROKEN = down for everyone at PROJECT/TENANT/GLOBAL scope; ' +
      'USER_SPECIFIC_TECHNICAL = down for one user (USER scope, e.g. an expired token); INTERMITTENT = works ' +
      'sometimes (status DEGRADED). Give expectedRecoveryAt when you can estimate it.',
    schema(
      {
        ...key,
        classification: {
          type: 'string',
          enum: [
            ToolHealthClassification.TECHNICALLY_BROKEN,
            ToolHealthClassification.USER_SPECIFIC_TECHNICAL,
            ToolHealthClassification.INTERMITTENT,
          ],
        },
        note,
        expectedRecoveryAt: instant,
        errorSignature: { ...id, description: 'The error signature diagnosed, e.g. "http-502"; sets its cooldown.' },
        code: { type: 'string', enum: [ToolErrorCode.BACKEND_UNREACHABLE, ToolErrorCode.BACKEND_FAILED] },
      },
      ['toolName', 'scope', 'classification', 'note'],
    ),
  ),
  manifest(
    AgrajagToolName.SET_AVAILABLE,
    'Record that a probe succeeded: the tool works at this scope (a WORKING verdict). Clears DOWN/DEGRADED and ' +
      "expires technical cooldowns; other users' permission cooldowns stay.",
    schema({ ...key, note }, ['toolName', 'scope', 'note']),
  ),
  manifest(
    AgrajagToolName.SET_COOLDOWN,
    'Stop further diagnoses of one error signature for a while without changing the tool status, e.g. a ' +
      "user's http-403 (USER_PERMISSION, give userId) or bad input (USER_INPUT). Defaults: USER_PERMISSION 24 h, " +
      'USER_INPUT 5 min, USER_SPECIFIC_TECHNICAL 15 min doubling, INTERMITTENT 30 s ×4.',
    schema(
      {
        ...key,
        errorSignature: { ...id, description: 'e.g. "http-403", "timeout-30s".' },
        classification: {
          type: 'string',
          enum: Object.values(ToolHealthClassification).filter((c) => c !== ToolHealthClassification.WORKING),
        },
        durationSeconds: { type: 'integer', minimum: 1, maximum: 30 * 24 * 3600, description: 'Override the default window.' },
        userId: { ...id, description: 'Only for a user-specific cooldown.' },
        note,
      },
      ['toolName', 'scope', 'errorSignature', 'classification'],
    ),
  ),
  manifest(
    AgrajagToolName.CLEAR,
    'Reset an entry to OK and expire all of its cooldowns without a verdict (e.g. after a manual fix). The ' +
      'history records who cleared it.',
    schema({ ...key, note }, ['toolName', 'scope']),
  ),
];
