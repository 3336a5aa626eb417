import { Principal, holdsRole } from '../auth/principal';
import { Role } from '../domain/role';
import { argumentsSchema } from '../shapes/arguments-schema';
import { AGRAJAG_TOOLS, AgrajagToolManifest, AgrajagToolName } from '../features/diagnoses/agrajag-tools';
import { HealthKeyArguments } from '../features/diagnoses/agrajag-arguments.dto';
import { ToolSafety } from '../domain/audience';
import { LookupArguments } from './lookup-arguments.dto';
import { GET_RESULT_SCHEMA, LOOKUP_RESULT_SCHEMA, writerResultSchema } from './mcp-schemas';

/** The two read tools for diagnosis turns (issue 15); the writers are AGRAJAG_TOOLS (§7). */
export enum McpReadToolName {
  GET = 'tool_health_get',
  LOOKUP = 'tool_health_lookup',
}

export type McpToolName = AgrajagToolName | McpReadToolName;

/** MCP's behaviour hints (2025-06-18 ToolAnnotations). */
export interface McpToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** §8's markers, carried in the MCP tool's `_meta` (P71). */
export interface McpToolMeta {
  safety: ToolSafety.SAFE_PROBE;
  /** §8: an engine must hold every one of these roles to see the tool. */
  requiresEngineRoles: string[];
  /** Set when any one of these roles is enough (the read tools); absent = requiresEngineRoles decides. */
  anyOfEngineRoles?: string[];
}

export interface McpToolDefinition {
  name: McpToolName;
  title: string;
  description: string;
  /** For the writers: the very object REST publishes and validates with (AGRAJAG_TOOLS). */
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: McpToolHints & { title: string };
  _meta: McpToolMeta;
}

/**
 * Every writer pushes a history item per call (D12), so none is idempotent in MCP's sense ("no
 * additional effect"); none touches a tool's backend (SAFE_PROBE, closed world). Destructive (P138):
 * tool_health_clear, which discards without a verdict what no tool can restore — the estimate and
 * every cooldown, other users' USER_PERMISSION windows included. The verdict writers add a verdict
 * (the old ones stay in the history) and end only what that verdict disproves (D11).
 */
const WRITER_HINTS: McpToolHints = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
const DESTRUCTIVE: ReadonlySet<McpToolName> = new Set([AgrajagToolName.CLEAR]);
const READER_HINTS: McpToolHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const TITLES: Record<McpToolName, string> = {
  [AgrajagToolName.SET_UNAVAILABLE]: 'Record a tool as down or degraded',
  [AgrajagToolName.SET_AVAILABLE]: 'Record a tool as working',
  [AgrajagToolName.SET_COOLDOWN]: 'Pause diagnoses of one error signature',
  [AgrajagToolName.CLEAR]: 'Reset a tool health entry',
  [McpReadToolName.GET]: 'Read one tool health entry',
  [McpReadToolName.LOOKUP]: 'Effective availability of a tool for a caller',
};

function writer(manifest: AgrajagToolManifest): McpToolDefinition {
  const title = TITLES[manifest.name];
  return {
    name: manifest.name,
    title,
    description: manifest.description,
    inputSchema: manifest.inputSchema,
    outputSchema: writerResultSchema(manifest.name),
    annotations: { title, ...WRITER_HINTS, destructiveHint: DESTRUCTIVE.has(manifest.name) },
    _meta: { safety: manifest.safety, requiresEngineRoles: [...manifest.requiresEngineRoles] },
  };
}

const READ_ROLES = [Role.TOOL_HEALTH_WRITER, Role.AUDIT_READER];
function reader(
  name: McpReadToolName,
  description: string,
  inputSchema: Record<string, unknown>,
  outputSchema: Record<string, unknown>,
): McpToolDefinition {
  const title = TITLES[name];
  return {
    name,
    title,
    description,
    inputSchema,
    outputSchema,
    annotations: { title, ...READER_HINTS },
    _meta: { safety: ToolSafety.SAFE_PROBE, requiresEngineRoles: [], anyOfEngineRoles: [...READ_ROLES] },
  };
}

export const MCP_TOOLS: readonly McpToolDefinition[] = [
  ...AGRAJAG_TOOLS.map(writer),
  reader(
    McpReadToolName.GET,
    'Read one stored tool health entry by its key: status, since, expected recovery, the last diagnosis, ' +
      'the history of verdicts (oldest first) and the cooldowns per error signature. Use it before you classify, ' +
      'to see what was tried before. found=false means nothing was ever stored for that key.',
    argumentsSchema(HealthKeyArguments),
    GET_RESULT_SCHEMA,
  ),
  reader(
    McpReadToolName.LOOKUP,
    'The effective availability of a tool for one caller context: walks SESSION → USER → PROJECT → ' +
      'TENANT → GLOBAL and answers the status that applies, why (reason), the entry that decided and the wider ' +
      'problems it hid. Give every id the call had.',
    argumentsSchema(LookupArguments),
    LOOKUP_RESULT_SCHEMA,
  ),
];

/**
 * D17 per tool: the writers need every role of requiresEngineRoles (§8; the engine role names are
 * the API key role names), the read tools any of theirs; admin may call everything.
 */
export function mayCall(principal: Principal, tool: McpToolDefinition): boolean {
  const { requiresEngineRoles, anyOfEngineRoles } = tool._meta;
  if (anyOfEngineRoles) return anyOfEngineRoles.some((role) => holdsRole(principal, role as Role));
  return requiresEngineRoles.every((role) => holdsRole(principal, role as Role));
}

/** tools/list: a key sees only what it may call (§8: a tool it must not call does not exist for it). */
export function visibleTools(principal: Principal): McpToolDefinition[] {
  return MCP_TOOLS.filter((tool) => mayCall(principal, tool));
}

export function findTool(name: string): McpToolDefinition | undefined {
  return MCP_TOOLS.find((tool) => tool.name === name);
}

/** The roles that would let a key call the tool, for the refusal's message. */
export function rolesFor(tool: McpToolDefinition): string[] {
  return [...(tool._meta.anyOfEngineRoles ?? tool._meta.requiresEngineRoles), Role.ADMIN];
}
