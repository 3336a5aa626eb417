import {
  aClientDisconnect,
  aClientReconnect,
  aDownDocument,
  aHistoryItem,
  aKeyAt,
  aMarkAvailable,
  aSystemWrite,
  aToolHealthDocument,
  at,
  MINUTE,
} from '../../../test/factories';
import { newTestService } from '../../../test/support/new-test-service';
import { encodeKey } from '../../domain/health-key';
import { HealthEventType } from '../../domain/health-events';
import { Scope } from '../../domain/scope';
import { ToolErrorCode } from '../../domain/tool-error-code';
import { ToolStatus } from '../../domain/tool-status';
import { SystemWritesService } from './system-writes.service';

describe('SystemWritesService (service tier)', () => {
  it('markUnavailable stores DOWN with the code, a system diagnosis and one history item, and commits STATUS_CHANGED', async () => {
    const { sut, ports, clock } = newTestService(SystemWritesService);
    clock.advance(MINUTE);
    const doc = await sut.markUnavailable(aSystemWrite({ note: 'connection refused', expectedRecoveryAt: at(HOUR_2) }));

    expect(ports.toolHealth.stored(doc.id)).toMatchObject({
      status: ToolStatus.DOWN,
      code: ToolErrorCode.BACKEND_UNREACHABLE,
      since: at(MINUTE),
      expectedRecoveryAt: at(HOUR_2),
      version: 1,
      lastDiagnosis: { classification: null, by: 'system:monitor', note: 'connection refused', at: at(MINUTE) },
      history: [{ status: ToolStatus.DOWN, by: 'system:monitor', recoveryAt: at(HOUR_2) }],
    });
    expect(ports.toolHealth.pendingEvents(doc.id)).toEqual([
      expect.objectContaining({
        type: HealthEventType.STATUS_CHANGED,
        status: ToolStatus.DOWN,
        payload: expect.objectContaining({ previousStatus: null }),
      }),
    ]);
    // Not the relay's lease holder: the document is marked for the holder's pass (P97).
    expect([...ports.eventRelay.pendingMarkers]).toEqual([doc.id]);
  });

  it("a bulk write keeps each stored document to its own tenant's history limit, whatever tenant the request names (D12, D18)", async () => {
    const { sut, ports } = newTestService(SystemWritesService);
    await ports.tenantSettings.setHistoryLimit('small', 2, 'ops', at(0));
    const key = aKeyAt(Scope.PROJECT, { toolName: 'kept' });
    const history = [1, 2, 3].map((n) => aHistoryItem({ at: at(n * MINUTE) }));
    ports.toolHealth.seed(aToolHealthDocument({ ...key, tenantId: 'small', history }));
    const { scope, scopeId } = key;
    const answer = await sut.markManyUnavailable({ ...aSystemWrite({ scope, scopeId, tenantId: 'large' }), toolNames: ['kept', 'fresh'] });

    const kept = ports.toolHealth.stored(encodeKey(key))!;
    expect(kept.tenantId).toBe('small');
    expect(kept.history).toHaveLength(2);
    const fresh = answer.results.find((r) => r.toolName === 'fresh');
    expect(fresh?.entry?.tenantId).toBe('large'); // created by this write: the request's tenant
  });

  it('a write whose document records another tenant at every look gives up with a conflict and writes nothing', async () => {
    const { sut, ports } = newTestService(SystemWritesService);
    const key = aKeyAt(Scope.PROJECT, { toolName: 'moving' });
    const doc = aToolHealthDocument({ ...key, tenantId: 'tenant-0' });
    ports.toolHealth.seed(doc);
    // Each limit the write looks up finds the document made again under yet another tenant.
    let looks = 0;
    const find = ports.tenantSettings.find.bind(ports.tenantSettings);
    jest.spyOn(ports.tenantSettings, 'find').mockImplementation((tenantId) => {
      ports.toolHealth.seed({ ...doc, tenantId: `tenant-${++looks}` });
      return find(tenantId);
    });
    const write = sut.markUnavailable(aSystemWrite({ ...key, tenantId: 'asked' }));

    await expect(write).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(ports.toolHealth.stored(doc.id)).toMatchObject({ version: doc.version, history: doc.history });
    expect(looks).toBeGreaterThan(1);
  });

  it('a PROJECT write records the tenant it was given; a GLOBAL one never holds a tenant', async () => {
    const { sut } = newTestService(SystemWritesService);
    expect(await sut.markUnavailable(aSystemWrite({ ...aKeyAt(Scope.PROJECT), tenantId: 'tenant-1' }))).toMatchObject({
      tenantId: 'tenant-1',
    });
    expect(await sut.markUnavailable(aSystemWrite({ tenantId: 'tenant-1' }))).toMatchObject({ tenantId: null });
  });

  it('markAvailable brings a DOWN document back to OK and records it in history', async () => {
    const { sut, ports } = newTestService(SystemWritesService);
    const down = aDownDocument();
    ports.toolHealth.seed(down);
    const doc = await sut.markAvailable(aMarkAvailable());
    expect(doc).toMatchObject({ status: ToolStatus.OK, code: null, expectedRecoveryAt: null, version: 2 });
    expect(doc.history.map((h) => h.status)).toEqual([ToolStatus.DOWN, ToolStatus.OK]);
    expect(ports.toolHealth.pendingEvents(down.id).map((e) => e.type)).toEqual([HealthEventType.STATUS_CHANGED]);
  });

  it('markAvailable is NOT_FOUND when nothing is stored, and writes nothing', async () => {
    const { sut, ports } = newTestService(SystemWritesService);
    await expect(sut.markAvailable(aMarkAvailable())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(ports.db.toolHealth.size).toBe(0);
  });

  it('markAvailable on an entry already OK writes nothing (its history stays for real diagnoses)', async () => {
    const { sut, ports } = newTestService(SystemWritesService);
    const ok = aToolHealthDocument();
    ports.toolHealth.seed(ok);
    expect(await sut.markAvailable(aMarkAvailable())).toMatchObject({ version: 1, history: [] });
    expect(ports.toolHealth.pendingEvents(ok.id)).toEqual([]);
  });

  it('rejects an invalid key with INVALID_ARGUMENT naming the field', async () => {
    const { sut } = newTestService(SystemWritesService);
    await expect(sut.markUnavailable(aSystemWrite({ toolName: 'no spaces allowed' }))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      field: 'toolName',
    });
    await expect(sut.markUnavailable(aSystemWrite({ scope: Scope.PROJECT, scopeId: null }))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('a client disconnect takes its tools DOWN at SESSION with BACKEND_UNREACHABLE, keeping their descriptions (D15b)', async () => {
    const { sut, ports } = newTestService(SystemWritesService);
    const result = await sut.clientDisconnected('session-1', aClientDisconnect());
    expect(result).toEqual({ sessionId: 'session-1', changed: ['client-tool-a', 'client-tool-b'] });
    const a = ports.toolHealth.stored(encodeKey(aKeyAt(Scope.SESSION, { toolName: 'client-tool-a' })));
    expect(a).toMatchObject({ status: ToolStatus.DOWN, code: ToolErrorCode.BACKEND_UNREACHABLE, description: 'A client tool' });
  });

  it('a reconnect brings only the tools that were written back, and names only those', async () => {
    const { sut } = newTestService(SystemWritesService);
    await sut.clientDisconnected('session-1', aClientDisconnect({ tools: [{ name: 'client-tool-a' }] }));
    const result = await sut.clientReconnected('session-1', aClientReconnect());
    expect(result.changed).toEqual(['client-tool-a']);
  });

  it('rejects duplicate tool names in one session event', async () => {
    const { sut, ports } = newTestService(SystemWritesService);
    await expect(sut.clientReconnected('session-1', aClientReconnect({ tools: ['x', 'x'] }))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      field: 'tools',
    });
    expect(ports.db.toolHealth.size).toBe(0);
  });
});

const HOUR_2 = 2 * 60 * MINUTE;
