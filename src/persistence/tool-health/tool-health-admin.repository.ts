import { Scope } from '../../domain/scope';
import { ToolHealthDocument } from '../../domain/tool-health-document';
import { ToolStatus } from '../../domain/tool-status';

/** The admin list's filter: every field optional, values already validated by the caller. */
export interface AdminListFilter {
  scope?: Scope;
  scopeId?: string;
  toolName?: string;
  status?: ToolStatus;
  /** true: holds a cooldown still running at `now`; false: holds none. */
  hasActiveCooldown?: boolean;
}

export interface ScopeStatusCount {
  scope: Scope;
  status: ToolStatus;
  count: number;
}

export interface PurgeOutcome {
  deleted: number;
  /** More documents matched than the batch allowed: call again. */
  hasMore: boolean;
}

/**
 * The port for the admin API's reads and hard deletes on tool_health (D14). Kept apart from
 * ToolHealthRepository: these paths are rare, admin-only and never on the hot path.
 */
export abstract class ToolHealthAdminRepository {
  /**
   * Ordered by `_id` (immutable), strictly between `afterId` and `beforeId` (null: unbounded): a
   * cursor stays stable while documents are written. `backward` reads from the `beforeId` end,
   * highest `_id` first (a page asked for with `last`, P145).
   */
  abstract page(
    filter: AdminListFilter,
    now: Date,
    range: { afterId: string | null; beforeId: string | null },
    limit: number,
    backward?: boolean,
  ): Promise<ToolHealthDocument[]>;

  /** Per-tool overview: how many documents of the tool there are per (scope, status). */
  abstract countByScopeAndStatus(toolName: string): Promise<ScopeStatusCount[]>;

  /**
   * Every document by (scope, status), for the `tas_documents` gauge: one `$group` over the
   * collection, given up by the database after `maxTimeMs`.
   */
  abstract countAllByScopeAndStatus(maxTimeMs: number): Promise<ScopeStatusCount[]>;

  /** Hard delete of one document; the deleted document, or null when there was none. */
  abstract deleteById(id: string): Promise<ToolHealthDocument | null>;

  /**
   * Bulk hard delete: documents of `scope` last updated before `olderThan`, at most `limit` of
   * them, never one whose pin is still in force at `now`.
   */
  abstract purge(scope: Scope, olderThan: Date, now: Date, limit: number): Promise<PurgeOutcome>;
}
