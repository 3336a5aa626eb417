import { CooldownView, DiagnosisView, HistoryItemView, ToolHealthView } from '../shapes/tool-health.view';
import { viewJsonSchema } from '../shapes/view-json-schema';
import { CascadeReason } from '../domain/cascade';
import { Scope } from '../domain/scope';
import { ToolStatus } from '../domain/tool-status';

/**
 * JSON Schemas of the MCP tools' structuredContent (P72). They describe the JSON form of the
 * same views REST answers with (ToolHealthView, read off the class; EffectiveHealthView; dates
 * as ISO strings) and require only the fields an engine acts on, so a field another change adds
 * to the document does not turn a valid result into a client-side validation error. The SDK's
 * client validates every result against them, which test/mcp.e2e-spec.ts relies on.
 */
type Schema = Record<string, unknown>;

const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });
const string: Schema = { type: 'string' };
const enumOf = (values: readonly string[]): Schema => ({ type: 'string', enum: [...values] });

const status = enumOf(Object.values(ToolStatus));
const scope = enumOf(Object.values(Scope));

// The fields an engine acts on, which every answer must carry; the views' other fields are
// described but may be missing, so a field added to a view later never fails a client's check.
const ENGINE_FIELDS = new Map<new () => unknown, readonly string[]>([
  [
    ToolHealthView,
    ['id', 'scope', 'scopeId', 'toolName', 'status', 'since', 'expectedRecoveryAt', 'lastDiagnosis', 'history', 'cooldowns'],
  ],
  [DiagnosisView, ['classification', 'note', 'by', 'at']],
  [HistoryItemView, ['classification', 'note', 'by', 'at', 'status']],
  [CooldownView, ['errorSignature', 'userId', 'nextSpawnAllowedAt', 'hits', 'lastClassification']],
]);

/** One stored health document (§5): REST's ToolHealthView, read off the class (P115). */
export const ENTRY_SCHEMA: Schema = viewJsonSchema(ToolHealthView, (view) => ENGINE_FIELDS.get(view) ?? []);

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
    signals: nullable({
      type: 'object',
      description: 'evidence from recent calls beside the status: failing often or slow right now; null when neither',
      properties: { failingOften: nullable({ type: 'object' }), slow: nullable({ type: 'object' }), text: nullable(string) },
    }),
  },
  required: ['summary', 'toolName', 'status', 'retesting', 'reason', 'winner', 'considered', 'shadowed'],
};
