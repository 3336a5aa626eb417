import { CascadeReason } from './cascade';
import { NO_MAINTENANCE, maintenanceFor } from './maintenance-window';
import { Scope } from './scope';
import { contextOfScope, scopeStatus } from './scope-status';
import { ToolHealthDocument } from './tool-health-document';
import { ToolStatus } from './tool-status';
import { HOUR, MINUTE, aDownDocument, aKeyAt, aMaintenanceWindow, aPin, aToolHealthDocument, at } from '../../test/factories';

const NOW = at(10 * MINUTE);
const byId = (...docs: ToolHealthDocument[]) => new Map(docs.map((d) => [d.id, d]));
const entryAt = (scope: Scope, overrides: Partial<ToolHealthDocument> = {}) => aToolHealthDocument({ ...aKeyAt(scope), ...overrides });
const downAt = (scope: Scope, overrides: Partial<ToolHealthDocument> = {}) => aDownDocument({ ...aKeyAt(scope), ...overrides });
const TENANT = aKeyAt(Scope.TENANT);
const TENANT_ID = TENANT.scopeId;

describe('contextOfScope: a caller at exactly that scope', () => {
  it.each([
    [Scope.SESSION, { sessionId: 'session-1', tenantId: 'tenant-1' }],
    [Scope.USER, { userId: 'user-1', tenantId: 'tenant-1' }],
    [Scope.PROJECT, { projectId: 'project-1', tenantId: 'tenant-1' }],
    [Scope.TENANT, { tenantId: 'tenant-1' }],
    [Scope.GLOBAL, {}],
  ])('%s', (scope, context) => {
    expect(contextOfScope(aKeyAt(scope), 'tenant-1')).toEqual(context);
  });
});

describe('scopeStatus: what a scope reads as (the one evaluation)', () => {
  it('an OK tenant entry reads DOWN while the tool is DOWN for everyone, and says where it is decided and until when', () => {
    const global = downAt(Scope.GLOBAL, { expectedRecoveryAt: at(HOUR) });
    expect(scopeStatus(TENANT, TENANT_ID, byId(entryAt(Scope.TENANT), global), NO_MAINTENANCE, NOW)).toEqual({
      status: ToolStatus.DOWN,
      source: { reason: CascadeReason.LIVE_PROBLEM, scope: Scope.GLOBAL, scopeId: null, until: at(HOUR) },
    });
  });

  it("a pin at the scope bounds its reach: the wider problem is not the scope's", () => {
    const pinned = entryAt(Scope.TENANT, { pin: aPin({ status: ToolStatus.OK, until: at(2 * HOUR) }) });
    expect(scopeStatus(TENANT, TENANT_ID, byId(pinned, downAt(Scope.GLOBAL)), NO_MAINTENANCE, NOW)).toEqual({
      status: ToolStatus.OK,
      source: { reason: CascadeReason.PINNED, scope: Scope.TENANT, scopeId: TENANT_ID, until: at(2 * HOUR) },
    });
  });

  it('the narrowest problem wins: a DEGRADED project stays DEGRADED under a DOWN tenant', () => {
    const project = entryAt(Scope.PROJECT, { status: ToolStatus.DEGRADED });
    const status = scopeStatus(aKeyAt(Scope.PROJECT), TENANT_ID, byId(project, downAt(Scope.TENANT)), NO_MAINTENANCE, NOW);
    expect(status).toMatchObject({
      status: ToolStatus.DEGRADED,
      source: { reason: CascadeReason.LIVE_PROBLEM, scope: Scope.PROJECT, scopeId: 'project-1' },
    });
  });

  it('a wider window in force makes the scope DOWN until its end', () => {
    const window = aMaintenanceWindow({ from: at(0), until: at(HOUR) });
    const view = maintenanceFor([window], window.toolName, contextOfScope(TENANT, null), NOW, HOUR);
    expect(scopeStatus(TENANT, TENANT_ID, byId(entryAt(Scope.TENANT)), view, NOW)).toEqual({
      status: ToolStatus.DOWN,
      source: { reason: CascadeReason.MAINTENANCE, scope: Scope.GLOBAL, scopeId: null, until: at(HOUR) },
    });
  });

  it("a project's tenant counts only when known; a session reaches no user's or project's entry", () => {
    const entries = byId(downAt(Scope.TENANT), downAt(Scope.USER), downAt(Scope.PROJECT));
    expect(scopeStatus(aKeyAt(Scope.PROJECT), null, byId(downAt(Scope.TENANT)), NO_MAINTENANCE, NOW).status).toBe(ToolStatus.OK);
    expect(scopeStatus(aKeyAt(Scope.PROJECT), TENANT_ID, byId(downAt(Scope.TENANT)), NO_MAINTENANCE, NOW).status).toBe(ToolStatus.DOWN);
    expect(scopeStatus(aKeyAt(Scope.SESSION), null, entries, NO_MAINTENANCE, NOW)).toEqual({
      status: ToolStatus.OK,
      source: { reason: CascadeReason.DEFAULT_OK, scope: null, scopeId: null, until: null },
    });
  });

  it('the scope without an entry of its own (deleted) reads as the wider ones say', () => {
    const status = scopeStatus(TENANT, TENANT_ID, byId(downAt(Scope.GLOBAL)), NO_MAINTENANCE, NOW);
    expect(status).toMatchObject({ status: ToolStatus.DOWN, source: { scope: Scope.GLOBAL, scopeId: null } });
  });
});
