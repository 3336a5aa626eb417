import { DomainError } from './domain-error';
import { CASCADE_ORDER, Scope } from './scope';
import { CallContext, HealthKey } from './tool-health-document';

/** The character set of tool names and scope ids (D3a). */
export const ID_PATTERN = /^[A-Za-z0-9._:@/-]{1,256}$/;
export const ID_PATTERN_SOURCE = '^[A-Za-z0-9._:@/-]{1,256}$';

const SEPARATOR = '|';
/** Never produced by escape(): every '%' it emits is followed by "25" or "7C". */
const NULL_PART = '%00';

function escape(part: string): string {
  // Almost no part holds either character; skipping the two regex passes matters when a
  // 200-tool manifest encodes ~1 000 cascade keys per turn (issue 13).
  if (part.indexOf('%') < 0 && part.indexOf(SEPARATOR) < 0) return part;
  return part.replace(/%/g, '%25').replace(/\|/g, '%7C');
}

function unescape(part: string): string {
  return part.replace(/%7C/g, '|').replace(/%25/g, '%');
}

/**
 * Injective string encoding of a key, used as `_id` (D3a) so that point and batch reads are
 * `_id` lookups. Injective for any strings, not only valid ids: the separator is escaped and
 * null has a spelling no escaped string can take.
 */
export function encodeKey(key: HealthKey): string {
  return keyInScope(scopePrefix(key.scope, key.scopeId), key.toolName);
}

/**
 * The encoded (scope, scopeId) part every `_id` of that scope starts with: the `_id` of the
 * scope's presence list (P81), from which keyInScope rebuilds each tool's `_id`.
 */
export function scopePrefix(scope: Scope, scopeId: string | null): string {
  return `${escape(scope)}${SEPARATOR}${scopeId === null ? NULL_PART : escape(scopeId)}`;
}

/** encodeKey of (the prefix's scope and scope id, toolName). */
export function keyInScope(prefix: string, toolName: string): string {
  return `${prefix}${SEPARATOR}${escape(toolName)}`;
}

/** The scope prefix of an encoded key: everything before its last separator, which no escaped name contains. */
export function prefixOfId(id: string): string {
  return id.slice(0, id.lastIndexOf(SEPARATOR));
}

export function decodeKey(id: string): HealthKey {
  const parts = id.split(SEPARATOR);
  if (parts.length !== 3) {
    throw DomainError.invalid('id', `not an encoded health key: ${id}`);
  }
  const [scope, scopeId, toolName] = parts;
  return {
    scope: unescape(scope) as Scope,
    scopeId: scopeId === NULL_PART ? null : unescape(scopeId),
    toolName: unescape(toolName),
  };
}

export function validateId(field: string, value: unknown): string {
  if (typeof value !== 'string' || !ID_PATTERN.test(value)) {
    throw DomainError.invalid(field, 'must be 1-256 characters of A-Z a-z 0-9 . _ : @ / -');
  }
  return value;
}

/** GLOBAL has scopeId null, every other scope a valid non-empty id (D6). */
export function validateKey(key: { scope: unknown; scopeId?: unknown; toolName: unknown }): HealthKey {
  if (!Object.values(Scope).includes(key.scope as Scope)) {
    throw DomainError.invalid('scope', `must be one of ${CASCADE_ORDER.join(', ')}`);
  }
  const scope = key.scope as Scope;
  const toolName = validateId('toolName', key.toolName);
  if (scope === Scope.GLOBAL) {
    if (key.scopeId !== null && key.scopeId !== undefined) {
      throw DomainError.invalid('scopeId', 'must be null for GLOBAL');
    }
    return { scope, scopeId: null, toolName };
  }
  if (key.scopeId === null || key.scopeId === undefined || key.scopeId === '') {
    throw DomainError.invalid('scopeId', `is required for ${scope}`);
  }
  return { scope, scopeId: validateId('scopeId', key.scopeId), toolName };
}

export function validateContext(context: CallContext): CallContext {
  const out: CallContext = {};
  for (const field of ['sessionId', 'userId', 'projectId', 'tenantId'] as const) {
    const value = context[field];
    if (value !== undefined && value !== null) out[field] = validateId(field, value);
  }
  return out;
}

/** The scope id a context supplies for a scope; undefined when that level is absent (D6). */
export function contextScopeId(scope: Scope, context: CallContext): string | null | undefined {
  switch (scope) {
    case Scope.SESSION:
      return context.sessionId ?? undefined;
    case Scope.USER:
      return context.userId ?? undefined;
    case Scope.PROJECT:
      return context.projectId ?? undefined;
    case Scope.TENANT:
      return context.tenantId ?? undefined;
    case Scope.GLOBAL:
      return null;
  }
}

/** The (scope, scopeId) pairs of a context's cascade, narrow → wide (D6: absent levels skipped). */
export function cascadeScopes(context: CallContext): { scope: Scope; scopeId: string | null }[] {
  const scopes: { scope: Scope; scopeId: string | null }[] = [];
  for (const scope of CASCADE_ORDER) {
    const scopeId = contextScopeId(scope, context);
    if (scopeId !== undefined) scopes.push({ scope, scopeId });
  }
  return scopes;
}

/** The keys the cascade of §4 consults for one tool, narrow → wide, absent levels skipped. */
export function cascadeKeys(toolName: string, context: CallContext): HealthKey[] {
  const keys: HealthKey[] = [];
  for (const scope of CASCADE_ORDER) {
    const scopeId = contextScopeId(scope, context);
    if (scopeId !== undefined) keys.push({ scope, scopeId, toolName });
  }
  return keys;
}

/**
 * The cascade's keys of one tool in a context with their `_id`s, the name escaped once: an
 * evaluation looks the same ids up for its reach and for its answer, and a 200-tool turn did the
 * encoding twice per key (P326).
 */
export interface CascadeKeyIds {
  keys: HealthKey[];
  ids: string[];
}

export function cascadeKeyIds(toolName: string, context: CallContext): CascadeKeyIds {
  const keys = cascadeKeys(toolName, context);
  const tool = escape(toolName);
  const ids = keys.map((key) => `${scopePrefix(key.scope, key.scopeId)}${SEPARATOR}${tool}`);
  return { keys, ids };
}

/** The tenant whose settings govern a key: a TENANT entry is its own; otherwise the writer may say. */
export function tenantOf(key: HealthKey, tenantId: string | undefined | null): string | null {
  return key.scope === Scope.TENANT ? key.scopeId : (tenantId ?? null);
}

/** A key in words, for messages: "SESSION s1 / jira_search", "GLOBAL / jira_search". */
export function describeKey(key: HealthKey): string {
  return `${key.scope}${key.scopeId ? ` ${key.scopeId}` : ''} / ${key.toolName}`;
}
