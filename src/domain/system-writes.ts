import { HealthReducer, applyStatus, newDocument } from './health-entry';
import { HealthKey } from './tool-health-document';
import { ToolErrorCode } from './tool-error-code';
import { ToolStatus } from './tool-status';

/**
 * §7 first row: binary events seen by system code (Foot disconnect, MCP connection close,
 * OOM-killed subprocess). They store the ToolErrorCode with a null classification and
 * `by: "system:<source>"` (D3b).
 */
export interface SystemWrite {
  key: HealthKey;
  source: string;
  now: Date;
  historyLimit: number;
  note?: string | null;
  tenantId?: string | null;
}

export interface MarkUnavailable extends SystemWrite {
  code: ToolErrorCode;
  since?: Date;
  expectedRecoveryAt?: Date | null;
  /** The tool's description, kept so a departed client tool can still be listed (D15b). */
  description?: string | null;
}

export interface MarkIntermittent extends SystemWrite {
  code?: ToolErrorCode | null;
  expectedRecoveryAt?: Date | null;
}

export function systemActor(source: string): string {
  return `system:${source}`;
}

function systemStatus(
  write: SystemWrite,
  status: ToolStatus,
  code: ToolErrorCode | null,
  extra: { since?: Date; expectedRecoveryAt?: Date | null; description?: string | null },
): HealthReducer {
  return (current) =>
    applyStatus(current ?? newDocument(write.key, write.now, write.tenantId ?? null), {
      status,
      code,
      since: extra.since,
      expectedRecoveryAt: extra.expectedRecoveryAt ?? null,
      description: extra.description,
      tenantId: write.tenantId,
      historyLimit: write.historyLimit,
      now: write.now,
      diagnosis: {
        classification: null,
        code,
        note: write.note ?? null,
        by: systemActor(write.source),
        at: write.now,
      },
    });
}

export function markUnavailable(write: MarkUnavailable): HealthReducer {
  return systemStatus(write, ToolStatus.DOWN, write.code, write);
}

export function markIntermittent(write: MarkIntermittent): HealthReducer {
  return systemStatus(write, ToolStatus.DEGRADED, write.code ?? null, write);
}

/**
 * Nothing to clear, nothing written: no document is created for a tool that was never down, and
 * an entry already OK keeps its history for real diagnoses (every reconnect would flood it).
 */
export function markAvailable(write: SystemWrite): HealthReducer {
  const reducer = systemStatus(write, ToolStatus.OK, null, {});
  return (current) => (current === null || current.status === ToolStatus.OK ? current : reducer(current));
}
