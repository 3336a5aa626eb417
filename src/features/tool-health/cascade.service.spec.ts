import { HOUR, aCallContext, aDownDocument, aKeyAt, aMaintenanceWindow, aPin, aToolHealthDocument, at } from '../../../test/factories';
import { newTestService } from '../../../test/support/new-test-service';
import { encodeKey } from '../../domain/health-key';
import { Scope } from '../../domain/scope';
import { ToolStatus } from '../../domain/tool-status';
import { CascadeService } from './cascade.service';

describe('CascadeService (service tier)', () => {
  it('getEntry answers the stored document, NOT_FOUND without one, INVALID_ARGUMENT for a bad key', async () => {
    const { sut, ports } = newTestService(CascadeService);
    const doc = aDownDocument({ ...aKeyAt(Scope.PROJECT) });
    ports.toolHealth.seed(doc);
    expect(await sut.getEntry(aKeyAt(Scope.PROJECT))).toEqual(ports.toolHealth.stored(doc.id));
    await expect(sut.getEntry(aKeyAt(Scope.USER))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(sut.getEntry({ scope: 'NOWHERE', toolName: 'x' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('with nothing stored every tool reads OK', async () => {
    const { sut } = newTestService(CascadeService);
    const [a, b] = await sut.lookupMany(['a', 'b'], aCallContext());
    expect([a.status, b.status]).toEqual([ToolStatus.OK, ToolStatus.OK]);
  });

  it('the narrowest live problem wins; an OK entry is neutral (§4)', async () => {
    const { sut, ports } = newTestService(CascadeService);
    ports.toolHealth.seed(aToolHealthDocument({ ...aKeyAt(Scope.PROJECT) }), aDownDocument({ ...aKeyAt(Scope.GLOBAL) }));
    const [evaluation] = await sut.lookupMany(['example-tool'], aCallContext());
    expect(evaluation).toMatchObject({ status: ToolStatus.DOWN, governing: { id: encodeKey(aKeyAt(Scope.GLOBAL)) } });
  });

  it("reads only the caller's cascade: another project's problem does not reach it", async () => {
    const { sut, ports } = newTestService(CascadeService);
    ports.toolHealth.seed(aDownDocument({ ...aKeyAt(Scope.PROJECT, { scopeId: 'project-2' }) }));
    const [evaluation] = await sut.lookupMany(['example-tool'], aCallContext());
    expect(evaluation.status).toBe(ToolStatus.OK);
  });

  it('an admin pin OK at PROJECT hides the GLOBAL outage until it ends (D4b)', async () => {
    const { sut, ports, clock } = newTestService(CascadeService);
    ports.toolHealth.seed(
      aToolHealthDocument({ ...aKeyAt(Scope.PROJECT), pin: aPin({ status: ToolStatus.OK, until: at(HOUR) }) }),
      aDownDocument({ ...aKeyAt(Scope.GLOBAL) }),
    );
    expect((await sut.lookupView('example-tool', aCallContext())).status).toBe(ToolStatus.OK);
    clock.set(at(HOUR));
    expect((await sut.lookupView('example-tool', aCallContext())).status).toBe(ToolStatus.DOWN);
  });

  it('a maintenance window in force reads DOWN, and not before it starts', async () => {
    const { sut, ports, clock } = newTestService(CascadeService);
    ports.maintenanceWindows.seed(aMaintenanceWindow({ from: at(HOUR), until: at(2 * HOUR) }));
    const [before] = await sut.lookupMany(['example-tool'], aCallContext());
    expect(before).toMatchObject({ status: ToolStatus.OK, underMaintenance: false });
    clock.set(at(HOUR));
    const [during] = await sut.lookupMany(['example-tool'], aCallContext());
    expect(during).toMatchObject({ status: ToolStatus.DOWN, underMaintenance: true });
  });

  it('lookupManifest lists the session’s own entries only with wholeSession (D15b)', async () => {
    const { sut, ports } = newTestService(CascadeService);
    ports.toolHealth.seed(aDownDocument({ ...aKeyAt(Scope.SESSION, { toolName: 'client-tool' }), description: 'gone' }));
    const narrow = await sut.lookupManifest(['example-tool'], aCallContext(), false);
    expect(narrow.sessionDocs).toEqual([]);
    const whole = await sut.lookupManifest(['example-tool'], aCallContext(), true);
    expect(whole.sessionDocs).toEqual([expect.objectContaining({ toolName: 'client-tool', description: 'gone' })]);
    expect(whole.effective.map((e) => e.status)).toEqual([ToolStatus.OK]);
  });

  it('rejects a context id that is not an id', async () => {
    const { sut } = newTestService(CascadeService);
    await expect(sut.lookupMany(['example-tool'], aCallContext({ projectId: 'a b' }))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
