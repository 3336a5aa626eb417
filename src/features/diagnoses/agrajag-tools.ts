import { argumentsSchema } from '../../shapes/arguments-schema';
import { ToolSafety, TOOL_HEALTH_WRITER_ROLE } from '../../domain/audience';
import { ClearArguments, SetAvailableArguments, SetCooldownArguments, SetUnavailableArguments } from './agrajag-arguments.dto';

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
  /** JSON Schema (draft 2020-12 subset) of the arguments, read off their class (P115); invocations are validated against it. */
  inputSchema: Record<string, unknown>;
}

const manifest = (name: AgrajagToolName, description: string, args: new () => unknown): AgrajagToolManifest => ({
  name,
  description,
  safety: ToolSafety.SAFE_PROBE,
  requiresEngineRoles: [TOOL_HEALTH_WRITER_ROLE],
  inputSchema: argumentsSchema(args),
});

export const AGRAJAG_TOOLS: readonly AgrajagToolManifest[] = [
  manifest(
    AgrajagToolName.SET_UNAVAILABLE,
    'Record that a tool is not usable. TECHNICALLY_BROKEN = down for everyone at PROJECT/TENANT/GLOBAL scope; ' +
      'USER_SPECIFIC_TECHNICAL = down for one user (USER scope, e.g. an expired token); INTERMITTENT = works ' +
      'sometimes (status DEGRADED). Give expectedRecoveryAt when you can estimate it.',
    SetUnavailableArguments,
  ),
  manifest(
    AgrajagToolName.SET_AVAILABLE,
    'Record that a probe succeeded: the tool works at this scope (a WORKING verdict). Clears DOWN/DEGRADED and ' +
      "expires technical cooldowns; other users' permission cooldowns stay.",
    SetAvailableArguments,
  ),
  manifest(
    AgrajagToolName.SET_COOLDOWN,
    'Stop further diagnoses of one error signature for a while without changing the tool status, e.g. a ' +
      "user's http-403 (USER_PERMISSION, give userId) or bad input (USER_INPUT). Defaults: USER_PERMISSION 24 h, " +
      'USER_INPUT 5 min, USER_SPECIFIC_TECHNICAL 15 min doubling, INTERMITTENT 30 s ×4.',
    SetCooldownArguments,
  ),
  manifest(
    AgrajagToolName.CLEAR,
    'Reset an entry to OK and expire all of its cooldowns without a verdict (e.g. after a manual fix). The ' +
      'history records who cleared it.',
    ClearArguments,
  ),
];
