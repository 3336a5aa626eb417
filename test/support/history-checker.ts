import { Db } from 'mongodb';
import { KEYS } from './api-keys';

/**
 * The history checker (the D21 review, Jepsen-style): concurrent writers send diagnoses whose history
 * items carry a unique note, each recording every write the service acknowledged (a 200 with the
 * stored entry); afterwards the stored documents must hold every acknowledged item exactly once,
 * at the position its answer's version says (versions contiguous: write v appended item v), and
 * a version equal to the number of items. The instances run with a history limit above the
 * number of writes per key, so nothing is evicted from the ring.
 */
export const HISTORY_LIMIT = 1000;
export const PROJECT = 'p-history';

export interface Ack {
  toolName: string;
  note: string;
  version: number;
}

export interface Target {
  url: string;
  running: boolean;
}

const REQUEST_TIMEOUT_MS = 30_000;

async function post(url: string, key: string, body: object): Promise<{ status: number; body: unknown } | null> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  } catch {
    return null; // refused, reset or timed out: not acknowledged
  }
}

/** One diagnosis; its answer when acknowledged, else null. */
export async function diagnose(target: Target, toolName: string, note: string): Promise<Ack | null> {
  const res = await post(`${target.url}/v1/diagnoses`, KEYS.writer, {
    scope: 'PROJECT',
    scopeId: PROJECT,
    toolName,
    classification: 'TECHNICALLY_BROKEN',
    note,
    by: 'history-checker',
  });
  if (res?.status !== 200) return null;
  const entry = res.body as { version: number; toolName: string };
  return { toolName: entry.toolName, note, version: entry.version };
}

export interface WriterPlan {
  targets: () => readonly Target[];
  toolNames: readonly string[];
  writers: number;
  writesPerWriter: number;
  /** Prefix of every note, unique per run. */
  run: string;
}

/** Runs the writers to the end; every acknowledged write is in the result. */
export async function runWriters(plan: WriterPlan): Promise<{ acks: Ack[]; sent: number }> {
  const acks: Ack[] = [];
  let sent = 0;
  const writer = async (w: number) => {
    for (let i = 0; i < plan.writesPerWriter; i++) {
      const live = plan.targets().filter((t) => t.running);
      if (live.length === 0) return;
      const target = live[(w + i) % live.length];
      const toolName = plan.toolNames[(w * 7 + i) % plan.toolNames.length];
      sent++;
      const ack = await diagnose(target, toolName, `${plan.run}.w${w}.i${i}`);
      if (ack) acks.push(ack);
    }
  };
  await Promise.all(Array.from({ length: plan.writers }, (_, w) => writer(w)));
  return { acks, sent };
}

export interface Verdict {
  acknowledged: number;
  lost: string[];
  duplicated: string[];
  misplaced: string[];
  versionMismatch: string[];
}

/** Checks the stored documents against the acknowledged writes (see the file's comment). */
export async function checkHistory(db: Db, acks: readonly Ack[], run: string): Promise<Verdict> {
  const verdict: Verdict = { acknowledged: acks.length, lost: [], duplicated: [], misplaced: [], versionMismatch: [] };
  const byTool = new Map<string, Ack[]>();
  for (const ack of acks) byTool.set(ack.toolName, [...(byTool.get(ack.toolName) ?? []), ack]);
  for (const [toolName, toolAcks] of byTool) {
    const doc = await db.collection('tool_health').findOne({ scope: 'PROJECT', scopeId: PROJECT, toolName });
    const history = ((doc?.history ?? []) as { note: string | null }[]).map((h) => h.note ?? '');
    const count = new Map<string, number>();
    for (const note of history) count.set(note, (count.get(note) ?? 0) + 1);
    for (const ack of toolAcks) {
      const n = count.get(ack.note) ?? 0;
      if (n === 0) verdict.lost.push(`${toolName}: ${ack.note} (v${ack.version})`);
      else if (n > 1) verdict.duplicated.push(`${toolName}: ${ack.note} ×${n}`);
      else if (history[ack.version - 1] !== ack.note)
        verdict.misplaced.push(`${toolName}: ${ack.note} answered v${ack.version}, stored at ${history.indexOf(ack.note) + 1}`);
    }
    const ours = history.filter((note) => note.startsWith(`${run}.`)).length;
    if (doc && (doc.version !== history.length || ours !== history.length)) {
      verdict.versionMismatch.push(`${toolName}: version ${doc.version}, ${history.length} history items (${ours} of this run)`);
    }
  }
  return verdict;
}

/** An empty verdict for `acknowledged` writes: what every run must end with. */
export const clean = (acknowledged: number): Verdict => ({ acknowledged, lost: [], duplicated: [], misplaced: [], versionMismatch: [] });

/**
 * Failure reports that meet a running cooldown: counted as hits (D10b bookkeeping). `unknown`
 * counts the answers that were neither an in-cooldown 200 nor a refusal before any work: a 503
 * at the request deadline (a paused database) may or may not have counted its hit (the D21 review,
 * case 4), so only `acked <= stored <= acked + unknown` holds for them.
 */
export async function reportHits(target: Target, toolName: string, times: number): Promise<{ acked: number; unknown: number }> {
  let acked = 0;
  let unknown = 0;
  for (let i = 0; i < times; i++) {
    const res = await post(`${target.url}/v1/outcomes/failure`, KEYS.dispatcher, {
      toolName,
      context: { projectId: PROJECT },
      code: 'BACKEND_FAILED',
      errorSignature: 'http-502',
    });
    if (res?.status === 200 && (res.body as { reason?: string }).reason === 'IN_COOLDOWN') acked++;
    else unknown++;
  }
  return { acked, unknown };
}

/** Adds up reportHits results. */
export const totalHits = (results: readonly { acked: number; unknown: number }[]) =>
  results.reduce((sum, r) => ({ acked: sum.acked + r.acked, unknown: sum.unknown + r.unknown }), { acked: 0, unknown: 0 });

/** The stored total against the reports: exact when every report was answered, else within the unknown ones. */
export function hitsVerdict(stored: number, reports: { acked: number; unknown: number }): string {
  if (stored >= reports.acked && stored <= reports.acked + reports.unknown) return 'exact within the answered reports';
  return `stored ${stored}, acknowledged ${reports.acked}, unknown ${reports.unknown}`;
}

export async function openCooldown(target: Target, toolName: string): Promise<void> {
  const res = await post(`${target.url}/v1/cooldowns`, KEYS.admin, {
    scope: 'PROJECT',
    scopeId: PROJECT,
    toolName,
    errorSignature: 'http-502',
    classification: 'INTERMITTENT',
  });
  if (res?.status !== 200) throw new Error(`could not open the cooldown: ${res?.status} ${JSON.stringify(res?.body)}`);
}

export async function storedHits(db: Db, toolName: string): Promise<number> {
  const doc = await db.collection('tool_health').findOne({ scope: 'PROJECT', scopeId: PROJECT, toolName });
  return (doc?.cooldowns as { hits: number }[] | undefined)?.[0]?.hits ?? -1;
}
