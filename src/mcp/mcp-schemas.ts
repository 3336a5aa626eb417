import { ToolHealthClassification } from '../domain/classification';
import { CascadeReason } from '../domain/cascade';
import { Scope } from '../domain/scope';
import { ToolErrorCode } from '../domain/tool-error-code';
import { ToolStatus } from '../domain/tool-status';

/**
 * JSON Schemas of the MCP tools' structuredContent (P72). They describe the JSON form of the
 * same views REST answers with (ToolHealthView, EffectiveHealthView; dates as ISO strings) and
 * require only the fields an engine acts on, so a field another change adds to the document
 * does not turn a valid result into a client-side validation error. The SDK's client validates
 * every result against them, which test/mcp.e2e-spec.ts relies on.
 */
type Schema = Record<string, unknown>;

const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });
const string: Schema = { type: 'string' };
const instant: Schema = { type: 'string', format: 'date-time' };
const enumOf = (values: readonly string[]): Schema => ({ type: 'string', enum: [...values] });

const classification = enumOf(Object.values(ToolHealthClassification));
const status = enumOf(Object.values(ToolStatus));
const scope = enumOf(Object.values(Scope));

const diagnosis: Schema = {
  type: 'object',
  properties: {
    classification: nullable(classification),
    code: nullable(enumOf(Object.values(ToolErrorCode))),
    note: nullable(string),
    by: string,
    at: instant,
  },
  required: ['classification', 'note', 'by', 'at'],
};

const historyItem: Schema = {
  type: 'object',
  properties: { ...(diagnosis.properties as Schema), status, recoveryAt: nullable(instant) },
  required: ['classification', 'note', 'by', 'at', 'status'],
};

const cooldown: Schema = {
  type: 'object',
  properties: {
    errorSignature: string,
    userId: nullable(string),
    nextSpawnAllowedAt: instant,
    hits: { type: 'integer' },
    lastClassification: classification,
    lastTriggeredAt: nullable(instant),
  },
  required: ['errorSignature', 'userId', 'nextSpawnAllowedAt', 'hits', 'lastClassification'],
};

/** One stored health document (§5), as REST's ToolHealthView. */
export const ENTRY_SCHEMA: Schema = {
  type: 'object',
  properties: {
    id: string,
    scope,
    scopeId: nullable(string),
    toolName: string,
    status,
    since: instant,
    lastCheckedAt: nullable(instant),
    expectedRecoveryAt: nullable(instant),
    lastDiagnosis: nullable(diagnosis),
    history: { type: 'array', items: historyItem, description: 'oldest first, newest last' },
    cooldowns: { type: 'array', items: cooldown },
  },
  required: ['id', 'scope', 'scopeId', 'toolName', 'status', 'since', 'expectedRecoveryAt', 'lastDiagnosis', 'history', 'cooldowns'],
};

const summary: Schema = { type: 'string', description: 'what happened or what is stored, for a model' };

/** The four writer tools: REST's AgrajagToolResultView. */
export function writerResultSchema(tool: string): Schema {
  return {
    type: 'object',
    properties: { tool: enumOf([tool]), summary, entry: nullable(ENTRY_SCHEMA) },
    required: ['tool', 'summary', 'entry'],
  };
}

export const GET_RESULT_SCHEMA: Schema = {
  type: 'object',
  properties: {
    summary,
    found: { type: 'boolean', description: 'false: nothing stored for this key (never diagnosed there)' },
    entry: nullable(ENTRY_SCHEMA),
  },
  required: ['summary', 'found', 'entry'],
};

const entrySummary: Schema = {
  type: 'object',
  properties: { scope, scopeId: nullable(string), status },
  required: ['scope', 'scopeId', 'status'],
};

/** REST's EffectiveHealthView (§4, §9) plus the summary. */
export const LOOKUP_RESULT_SCHEMA: Schema = {
  type: 'object',
  properties: {
    summary,
    toolName: string,
    status,
    retesting: { type: 'boolean' },
    reason: enumOf(Object.values(CascadeReason)),
    winner: nullable(ENTRY_SCHEMA),
    considered: { type: 'array', items: entrySummary },
    shadowed: { type: 'array', items: entrySummary },
    trace: { type: 'object' },
  },
  required: ['summary', 'toolName', 'status', 'retesting', 'reason', 'winner', 'considered', 'shadowed'],
};
