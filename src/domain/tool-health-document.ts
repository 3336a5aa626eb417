import { ToolHealthClassification } from './classification';
import { Scope } from './scope';
import { ToolErrorCode } from './tool-error-code';
import { ToolStatus } from './tool-status';

/** The document key (§5): unique per (scope, scopeId, toolName). scopeId is null only for GLOBAL. */
export interface HealthKey {
  scope: Scope;
  scopeId: string | null;
  toolName: string;
}

/** A verdict or a system write. classification is null for system writes (D3b). */
export interface Diagnosis {
  classification: ToolHealthClassification | null;
  code: ToolErrorCode | null;
  note: string | null;
  /** "agrajag-<id>", "system:<source>", "auto-clear", "admin:<key name>". */
  by: string;
  at: Date;
}

/** One ring-buffer entry of history[] (§5), newest last (D12). */
export interface HistoryItem extends Diagnosis {
  /** The status the write left behind; lets a reader replay transitions without diffing. */
  status: ToolStatus;
  recoveryAt: Date | null;
}

/** One cooldown (§6), keyed inside its document by (errorSignature, userId). */
export interface CooldownEntry {
  errorSignature: string;
  /** Set only for user-specific cooldowns; null = scope-wide. */
  userId: string | null;
  nextSpawnAllowedAt: Date;
  hits: number;
  lastClassification: ToolHealthClassification;
  lastTriggeredAt: Date | null;
  /** The window of the last (re)start; the ladder's next step multiplies this (D9). */
  windowMs: number;
}

/** Admin override (D4b): the pinned status wins over every wider entry until `until`. */
export interface Pin {
  status: ToolStatus.OK | ToolStatus.DOWN;
  until: Date;
  reason: string;
  by: string;
  at: Date;
}

/** The tool_health document of §5 with the additive fields of D3b. */
export interface ToolHealthDocument extends HealthKey {
  /** Injective encoding of the key (D3a); see health-key.ts. */
  id: string;
  tenantId: string | null;

  status: ToolStatus;
  since: Date;
  lastCheckedAt: Date | null;
  expectedRecoveryAt: Date | null;
  /** The ToolErrorCode behind the current problem; null when OK or unknown. */
  code: ToolErrorCode | null;
  lastFailureAt: Date | null;

  lastDiagnosis: Diagnosis | null;
  history: HistoryItem[];
  cooldowns: CooldownEntry[];
  pin: Pin | null;
  /** The tool's description as its client last sent it (D15b), so a departed tool can be listed. */
  description: string | null;

  /** Optimistic-concurrency guard (D3): incremented by every write. 0 = never stored. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The fields a document can be without (its key aside): those that may be null, and the lists. */
export type BlankableField = Exclude<
  {
    [K in keyof ToolHealthDocument]: null extends ToolHealthDocument[K] ? K : ToolHealthDocument[K] extends unknown[] ? K : never;
  }[keyof ToolHealthDocument],
  keyof HealthKey
>;

/**
 * The fields a document has before anything is known of them, each at its neutral value: what a
 * new document starts with (newDocument) and what a stored document that predates the field reads
 * as (the persistence mapper fills them in). A new field that may be null (or a list) gets its
 * neutral value here, once (docs/adding-a-field.md): `tsc` asks for it. Fresh arrays at every
 * call: a default is never shared.
 */
export function blankFields(): Pick<ToolHealthDocument, BlankableField> {
  return {
    tenantId: null,
    lastCheckedAt: null,
    expectedRecoveryAt: null,
    code: null,
    lastFailureAt: null,
    lastDiagnosis: null,
    history: [],
    cooldowns: [],
    pin: null,
    description: null,
  };
}

/**
 * What the cascade (§4) and the manifest annotation (§9) read of a stored entry: its key and
 * status, the instants and pin that decide RETESTING and the suffix, the last verdict (who
 * decided), the description a departed client tool is listed with (D15b). The manifest read
 * fetches only these fields (P116): history and cooldowns can be most of a document's bytes.
 */
export type CascadeEntry = HealthKey &
  Pick<
    ToolHealthDocument,
    'id' | 'status' | 'since' | 'expectedRecoveryAt' | 'code' | 'lastFailureAt' | 'lastDiagnosis' | 'pin' | 'description'
  >;

/** The optional parts of a caller's context (D6); absent levels are skipped by the cascade. */
export interface CallContext {
  sessionId?: string | null;
  userId?: string | null;
  projectId?: string | null;
  tenantId?: string | null;
}
