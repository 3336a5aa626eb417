import { USER_CLASSES, ToolHealthClassification } from './classification';
import { CallContext } from './tool-health-document';
import { ToolErrorCode, isToolFault } from './tool-error-code';
import { Scope } from './scope';

/**
 * Issue 16: evidence that a problem is wider than its first reporter. For each (tool, error
 * signature) the service counts the distinct users and projects whose tool-fault failures it saw
 * in a sliding window — per tenant, and across tenants — in minute buckets. Pure: the buckets'
 * sets come in, the judgement goes out; src/features/wider-evidence keeps, flushes and shares them.
 */

export interface WiderEvidenceSettings {
  /** Distinct users at which the evidence is wider (default 5). */
  users: number;
  /** Distinct projects at which the evidence is wider (default 3). */
  projects: number;
  /** Across tenants: distinct tenants needed besides the user and project counts (default 2). */
  tenants: number;
  /** The sliding window: `buckets` × `bucketMs` (default 10 × 1 minute). */
  buckets: number;
  bucketMs: number;
}

/** Ids kept per bucket and set: far above any threshold, so counts are exact up to it (P79). */
export const MAX_IDS_PER_BUCKET = 100;

/** Which counter: one tenant's, or the cross-tenant one (tenantId null). */
export interface EvidenceKey {
  toolName: string;
  errorSignature: string;
  tenantId: string | null;
}

export interface BucketSets {
  users: ReadonlySet<string> | readonly string[];
  projects: ReadonlySet<string> | readonly string[];
  tenants: ReadonlySet<string> | readonly string[];
}

const ANY_TENANT = '*';

/** `tool|signature|tenant|*`: D3a ids never contain "|", so the text is unambiguous. */
export function evidenceKeyId(key: EvidenceKey): string {
  return `${key.toolName}|${key.errorSignature}|${key.tenantId ?? ANY_TENANT}`;
}

export function bucketStart(now: Date, settings: WiderEvidenceSettings): number {
  return Math.floor(now.getTime() / settings.bucketMs) * settings.bucketMs;
}

export function bucketId(key: EvidenceKey, start: number): string {
  return `${evidenceKeyId(key)}|${start}`;
}

/** The bucket starts of the window ending at `now`, oldest first (the current one last). */
export function windowStarts(now: Date, settings: WiderEvidenceSettings): number[] {
  const current = bucketStart(now, settings);
  return Array.from({ length: settings.buckets }, (_, i) => current - (settings.buckets - 1 - i) * settings.bucketMs);
}

/**
 * D18 / issue 16: only tool faults count, never a user-class outcome (USER_PERMISSION,
 * USER_INPUT) — neither one the checker classified now nor one that hit a user-class cooldown —
 * and nothing during maintenance (the outage is announced).
 */
export function countsAsWiderEvidence(input: {
  code: ToolErrorCode;
  classification?: ToolHealthClassification | null;
  hitClassification?: ToolHealthClassification | null;
  underMaintenance: boolean;
}): boolean {
  if (!isToolFault(input.code) || input.underMaintenance) return false;
  if (input.classification && USER_CLASSES.has(input.classification)) return false;
  if (input.hitClassification && USER_CLASSES.has(input.hitClassification)) return false;
  return true;
}

/**
 * The keys a failure counts under: its tenant's (when known) and the cross-tenant one — each only
 * when that scope lies in the call's reach (D20: a failure under a tenant's OK pin says nothing
 * about the GLOBAL backend, so it is not counted there).
 */
export function evidenceKeysOf(
  toolName: string,
  errorSignature: string,
  context: CallContext,
  scopes: readonly Scope[] = [Scope.TENANT, Scope.GLOBAL],
): EvidenceKey[] {
  const keys: EvidenceKey[] = [];
  if (context.tenantId && scopes.includes(Scope.TENANT)) keys.push({ toolName, errorSignature, tenantId: context.tenantId });
  if (scopes.includes(Scope.GLOBAL)) keys.push({ toolName, errorSignature, tenantId: null });
  return keys;
}

/** Adds `id` unless the set is at its bound; true when the set changed. */
export function addBounded(set: Set<string>, id: string | null | undefined, max = MAX_IDS_PER_BUCKET): boolean {
  if (!id || set.has(id) || set.size >= max) return false;
  set.add(id);
  return true;
}

export interface DistinctCounts {
  users: number;
  projects: number;
  tenants: number;
  /** Start of the oldest bucket in the window that holds anything; null when none does. */
  since: Date | null;
}

/** Distinct ids over the window's buckets (each given by its start; several sources per start are unioned). */
export function countDistinct(
  buckets: Iterable<{ start: number; sets: BucketSets }>,
  now: Date,
  settings: WiderEvidenceSettings,
): DistinctCounts {
  const oldest = windowStarts(now, settings)[0];
  const newest = bucketStart(now, settings);
  const users = new Set<string>();
  const projects = new Set<string>();
  const tenants = new Set<string>();
  let since: number | null = null;
  for (const { start, sets } of buckets) {
    if (start < oldest || start > newest) continue;
    if (size(sets) === 0) continue;
    for (const u of sets.users) users.add(u);
    for (const p of sets.projects) projects.add(p);
    for (const t of sets.tenants) tenants.add(t);
    since = since === null ? start : Math.min(since, start);
  }
  return { users: users.size, projects: projects.size, tenants: tenants.size, since: since === null ? null : new Date(since) };
}

function size(sets: BucketSets): number {
  const n = (s: ReadonlySet<string> | readonly string[]) => (Array.isArray(s) ? s.length : (s as ReadonlySet<string>).size);
  return n(sets.users) + n(sets.projects) + n(sets.tenants);
}

/** What the failure answer carries when the evidence is wider than its reporter. */
export interface WiderEvidence {
  scope: Scope.TENANT | Scope.GLOBAL;
  /** The tenant for TENANT; null for GLOBAL. */
  scopeId: string | null;
  distinctUsers: number;
  distinctProjects: number;
  since: Date;
}

/**
 * The widest scope whose counts cross the thresholds: GLOBAL when users, projects and tenants
 * across tenants do (a single tenant's problem is not global, however many users it has), else
 * the caller's TENANT when its own counts do, else null.
 */
export function judgeWiderEvidence(
  tenant: { tenantId: string; counts: DistinctCounts } | null,
  global: DistinctCounts,
  settings: WiderEvidenceSettings,
): WiderEvidence | null {
  const crosses = (c: DistinctCounts) => c.since !== null && c.users >= settings.users && c.projects >= settings.projects;
  if (crosses(global) && global.tenants >= settings.tenants) {
    return { scope: Scope.GLOBAL, scopeId: null, distinctUsers: global.users, distinctProjects: global.projects, since: global.since! };
  }
  if (tenant && crosses(tenant.counts)) {
    return {
      scope: Scope.TENANT,
      scopeId: tenant.tenantId,
      distinctUsers: tenant.counts.users,
      distinctProjects: tenant.counts.projects,
      since: tenant.counts.since!,
    };
  }
  return null;
}

/** The diagnosis queue's key with the wider scope named, so it diagnoses once at that scope. */
export function widerCoalescingKey(base: string, evidence: WiderEvidence): string {
  return evidence.scope === Scope.GLOBAL ? `${base}@GLOBAL` : `${base}@TENANT:${evidence.scopeId}`;
}

/**
 * "Once per window": the crossing event's id names the window period (now ÷ window length), so
 * every instance that sees the crossing in that period writes the same id and the outbox keeps one.
 */
export function crossingPeriod(now: Date, settings: WiderEvidenceSettings): number {
  return Math.floor(now.getTime() / (settings.buckets * settings.bucketMs));
}

export interface WiderEvidencePayload {
  errorSignature: string;
  distinctUsers: number;
  distinctProjects: number;
  since: Date;
  /** The diagnosis queue's key for the wider scope. */
  coalescingKey: string;
}

// ---- the incremental tally (the hot path's form of countDistinct) ------------------------------

/**
 * countDistinct kept up to date one failure at a time: each id remembers the newest bucket it
 * was seen in, so a count is the map's size once ids older than the window are pruned (at most
 * once per bucket). Same answer as countDistinct over the same buckets (wider-evidence.spec.ts);
 * costs O(1) per failure instead of a union of ten buckets. Mutable, no I/O; time is an argument.
 */
export interface Tally {
  users: Map<string, number>;
  projects: Map<string, number>;
  tenants: Map<string, number>;
  /** Bucket starts holding anything. */
  buckets: Set<number>;
  /** The window's oldest start at the last prune. */
  oldest: number;
}

export function newTally(): Tally {
  return { users: new Map(), projects: new Map(), tenants: new Map(), buckets: new Set(), oldest: Number.NEGATIVE_INFINITY };
}

function note(map: Map<string, number>, id: string, start: number): void {
  const seen = map.get(id);
  if (seen === undefined || seen < start) map.set(id, start);
}

export function tallyAdd(tally: Tally, start: number, sets: BucketSets): void {
  if (size(sets) === 0) return;
  for (const u of sets.users) note(tally.users, u, start);
  for (const p of sets.projects) note(tally.projects, p, start);
  for (const t of sets.tenants) note(tally.tenants, t, start);
  tally.buckets.add(start);
}

function prune(map: Map<string, number>, oldest: number): void {
  for (const [id, start] of map) if (start < oldest) map.delete(id);
}

/**
 * The counts at `now`. Requires `now` not before the last call's bucket (a tally only moves
 * forward; rebuild it from the buckets when the clock went back). Buckets after `now` are not
 * expected (they would be counted).
 */
export function tallyCounts(tally: Tally, now: Date, settings: WiderEvidenceSettings): DistinctCounts {
  const oldest = bucketStart(now, settings) - (settings.buckets - 1) * settings.bucketMs;
  if (oldest > tally.oldest) {
    prune(tally.users, oldest);
    prune(tally.projects, oldest);
    prune(tally.tenants, oldest);
    for (const b of tally.buckets) if (b < oldest) tally.buckets.delete(b);
    tally.oldest = oldest;
  }
  let since: number | null = null;
  for (const b of tally.buckets) since = since === null || b < since ? b : since;
  return {
    users: tally.users.size,
    projects: tally.projects.size,
    tenants: tally.tenants.size,
    since: since === null ? null : new Date(since),
  };
}
