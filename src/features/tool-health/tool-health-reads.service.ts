import { Injectable } from '@nestjs/common';
import { Clock } from '../../runtime/clock';
import { CASCADE_ORDER } from '../../domain/scope';
import { DomainError } from '../../domain/domain-error';
import { ToolHealthDocument } from '../../domain/tool-health-document';
import { ToolStatus } from '../../domain/tool-status';
import { AdminListFilter, ToolHealthAdminRepository } from '../../persistence/tool-health/tool-health-admin.repository';
import { ToolHealthRepository } from '../../persistence/tool-health/tool-health.repository';
import { connectionOf, pageWindow } from '../../shapes/connection';
import { idOfToolHealthCursor, toolHealthCursor } from '../../shapes/cursor';
import { Node } from '../../shapes/node.interface';
import { EventsService } from '../events/events.service';
import { toHealthEventModel } from '../events/health-event.mapper';
import { CascadeService } from './cascade.service';
import { EffectiveHealthView, toEffectiveHealthView } from './effective-health.view';
import { CallContextInput, ToolHealthFilterInput } from './list.input';
import { PAGE_DEFAULT, ToolHealthsArgs } from './query.args';
import { ToolHealthConnection } from './tool-health-connection.model';
import { ToolOverviewModel } from './tool-overview.model';

/** A document `_id` is at most ~800 characters (three 256-character ids, escaped); an event id adds its suffix. */
const MAX_NODE_ID_LENGTH = 1200;

const STATUSES: readonly ToolStatus[] = [ToolStatus.OK, ToolStatus.DEGRADED, ToolStatus.DOWN];

/** The admin API's reads of the health entries (D17: audit-reader and admin): by key, by page, by id, per tool. */
@Injectable()
export class ToolHealthReadsService {
  constructor(
    private readonly admin: ToolHealthAdminRepository,
    private readonly repository: ToolHealthRepository,
    private readonly cascade: CascadeService,
    private readonly events: EventsService,
    private readonly clock: Clock,
  ) {}

  getEntry(key: { scope: unknown; scopeId?: unknown; toolName: unknown }): Promise<ToolHealthDocument> {
    return this.cascade.getEntry(key);
  }

  /** One item more than asked tells whether there is more on the side the page was asked from (P145). */
  async toolHealths(args: ToolHealthsArgs): Promise<ToolHealthConnection> {
    const window = pageWindow(args, PAGE_DEFAULT);
    const range = {
      afterId: args.after ? idOfToolHealthCursor(args.after, 'after') : null,
      beforeId: args.before ? idOfToolHealthCursor(args.before, 'before') : null,
    };
    const docs = await this.admin.page(listFilter(args.filter), this.clock.now(), range, window.limit, window.backward);
    return connectionOf(docs, args, window, (node) => toolHealthCursor(node.id));
  }

  /**
   * node(id:) (P146): two `_id` reads. An event id starts with its document's id, so the two only
   * meet if a tool name repeats another document's life, version and event type; the document wins.
   */
  async nodeById(id: string): Promise<Node | null> {
    if (id.length === 0 || id.length > MAX_NODE_ID_LENGTH) throw DomainError.invalid('id', `must be 1 … ${MAX_NODE_ID_LENGTH} characters`);
    const [doc, event] = await Promise.all([this.repository.findById(id), this.events.findById(id)]);
    return doc ?? (event ? toHealthEventModel(event) : null);
  }

  async effectiveHealth(toolName: string, context: CallContextInput | null | undefined): Promise<EffectiveHealthView> {
    const now = this.clock.now();
    const [effective] = await this.cascade.lookupMany([toolName], context ?? {}, now);
    return toEffectiveHealthView(effective, now, this.cascade.signalsFor(toolName));
  }

  async toolOverview(toolName: string): Promise<ToolOverviewModel> {
    const counts = await this.admin.countByScopeAndStatus(toolName);
    const count = (match: (c: { scope: string; status: ToolStatus }) => boolean) =>
      counts.filter(match).reduce((sum, c) => sum + c.count, 0);
    return {
      toolName,
      total: count(() => true),
      byStatus: STATUSES.map((status) => ({ status, count: count((c) => c.status === status) })),
      byScope: CASCADE_ORDER.map((scope) => ({
        scope,
        total: count((c) => c.scope === scope),
        byStatus: STATUSES.map((status) => ({ status, count: count((c) => c.scope === scope && c.status === status) })),
      })),
    };
  }
}

function listFilter(input: ToolHealthFilterInput | null | undefined): AdminListFilter {
  const filter: AdminListFilter = {};
  if (!input) return filter;
  if (input.scope != null) filter.scope = input.scope;
  if (input.scopeId != null) filter.scopeId = input.scopeId;
  if (input.toolName != null) filter.toolName = input.toolName;
  if (input.status != null) filter.status = input.status;
  if (input.hasActiveCooldown != null) filter.hasActiveCooldown = input.hasActiveCooldown;
  return filter;
}
