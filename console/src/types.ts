export type Scope = 'GLOBAL' | 'TENANT' | 'PROJECT' | 'USER' | 'SESSION';
export const SCOPES: Scope[] = ['GLOBAL', 'TENANT', 'PROJECT', 'USER', 'SESSION'];

export interface Cooldown {
  errorSignature: string;
  userId: string | null;
  hits: number;
  windowMs: number;
  nextSpawnAllowedAt: string;
  lastTriggeredAt: string | null;
  lastClassification: string;
}
export interface Pin {
  status: string;
  reason: string;
  by: string;
  at: string;
  until: string;
}
export interface Diagnosis {
  at: string;
  by: string;
  classification: string | null;
  code: string | null;
  note: string | null;
}
export interface HistoryItem {
  at: string;
  by: string;
  status: string;
  code: string | null;
  classification: string | null;
  note: string | null;
  recoveryAt: string | null;
}
export interface Entry {
  id: string;
  toolName: string;
  scope: Scope;
  scopeId: string | null;
  tenantId: string | null;
  status: string;
  since: string;
  updatedAt: string;
  expectedRecoveryAt: string | null;
  lastFailureAt: string | null;
  lastCheckedAt: string | null;
  code: string | null;
  pin: Pin | null;
  lastDiagnosis: Diagnosis | null;
  cooldowns: Cooldown[];
  history?: HistoryItem[];
}
export interface MaintenanceWindow {
  id: string;
  toolName: string;
  scope: Scope;
  scopeId: string | null;
  from: string;
  until: string;
  reason: string;
  by: string;
  phase: string;
  createdAt: string;
  updatedAt: string;
  cancelledAt: string | null;
  cancelledBy: string | null;
  /** How a series recurs; null for a one-off window. */
  recurrence: { rrule: string; timeZone: string } | null;
  /** A series' occurrence in force or next; null for a one-off window and a series with none left. */
  current: Occurrence | null;
  /** A series' occurrences in force or starting within the next week; empty for a one-off window. */
  occurrencesAhead: Occurrence[];
}
/** One occurrence of a series at its own times; `occurrence` is the start its rule gives it. */
export interface Occurrence {
  occurrence: string;
  from: string;
  until: string;
  reason: string;
}
export interface HealthEvent {
  id: string;
  docId: string;
  type: string;
  toolName: string;
  scope: Scope;
  scopeId: string | null;
  status: string;
  /** What the entry reads as after the event (a pin wins); differs from status only under a pin or maintenance. */
  effectiveStatus: string;
  tenantId: string | null;
  at: string;
  payload: Record<string, unknown> & { __typename: string };
}
export interface Viewer {
  name: string;
  roles: string[];
  canWrite: boolean;
}
/** An entry's key, as the Tool view and the actions take it. */
export interface EntryKey {
  toolName: string;
  scope: Scope;
  scopeId: string | null;
}
