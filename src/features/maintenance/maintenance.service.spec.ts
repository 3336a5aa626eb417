import { HOUR, MINUTE, aDownDocument, aMaintenanceWindow, aPrincipal, aScheduleRequest, at } from '../../../test/factories';
import { newTestService } from '../../../test/support/new-test-service';
import { HealthEventType } from '../../domain/health-events';
import { ToolStatus } from '../../domain/tool-status';
import { MaintenanceService } from './maintenance.service';

describe('MaintenanceService (service tier)', () => {
  it('schedule stores a window at version 1 by the admin, and get / list find it', async () => {
    const { sut, ports } = newTestService(MaintenanceService);
    const window = await sut.schedule(aScheduleRequest(), aPrincipal());
    expect(window).toMatchObject({ from: at(HOUR), until: at(2 * HOUR), by: 'admin:ops', version: 1, cancelledAt: null, createdAt: at() });
    expect(await ports.maintenanceWindows.findById(window.id)).toEqual(window);
    expect(await sut.get(window.id)).toEqual(window);
    expect(await sut.list({ toolName: 'example-tool' })).toEqual([window]);
  });

  it('refuses a window that ends before it starts or lies in the past (INVALID_ARGUMENT), storing nothing', async () => {
    const { sut, ports } = newTestService(MaintenanceService);
    await expect(sut.schedule(aScheduleRequest({ until: at(HOUR) }), aPrincipal())).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      field: 'until',
    });
    await expect(sut.schedule(aScheduleRequest({ from: at(-2 * HOUR), until: at(-HOUR) }), aPrincipal())).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(ports.maintenanceWindows.windows.size).toBe(0);
  });

  it('get is NOT_FOUND for an unknown id', async () => {
    const { sut } = newTestService(MaintenanceService);
    await expect(sut.get('00000000-0000-4000-8000-00000000ffff')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('change moves the window and its version; an ended window cannot change (CONFLICT)', async () => {
    const { sut, ports, clock } = newTestService(MaintenanceService);
    ports.maintenanceWindows.seed(aMaintenanceWindow());
    const changed = await sut.change(aMaintenanceWindow().id, { until: at(3 * HOUR) }, aPrincipal({ name: 'other' }));
    expect(changed).toMatchObject({ until: at(3 * HOUR), version: 2, by: 'admin:other' });
    clock.set(at(4 * HOUR));
    await expect(sut.change(changed.id, { reason: 'late' }, aPrincipal())).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('writes MAINTENANCE_STARTED once when the window begins and MAINTENANCE_ENDED with the stored status when it ends (P77)', async () => {
    const { sut, ports, clock } = newTestService(MaintenanceService);
    const window = aMaintenanceWindow();
    ports.maintenanceWindows.seed(window);
    ports.toolHealth.seed(aDownDocument());
    expect(await sut.emitDueEvents()).toBe(0);
    clock.set(at(HOUR));
    expect(await sut.emitDueEvents()).toBe(1);
    expect(await sut.emitDueEvents()).toBe(0);
    clock.set(at(2 * HOUR + MINUTE));
    expect(await sut.emitDueEvents()).toBe(1);
    const events = ports.eventRelay.stagedEvents();
    expect(events.map((e) => [e.type, e.status])).toEqual([
      [HealthEventType.MAINTENANCE_STARTED, ToolStatus.DOWN],
      [HealthEventType.MAINTENANCE_ENDED, ToolStatus.DOWN],
    ]);
    expect(await ports.maintenanceWindows.findById(window.id)).toMatchObject({
      startedEventAt: at(HOUR),
      endedEventAt: at(2 * HOUR + MINUTE),
    });
  });

  it('a window cancelled before it began never starts and owes no event; one cancelled in force ends at once', async () => {
    const { sut, ports, clock } = newTestService(MaintenanceService);
    ports.maintenanceWindows.seed(
      aMaintenanceWindow(),
      aMaintenanceWindow({ id: '00000000-0000-4000-8000-000000000002', toolName: 'other-tool' }),
    );
    await sut.cancel(aMaintenanceWindow().id, aPrincipal());
    clock.set(at(HOUR + MINUTE));
    await sut.emitDueEvents();
    await sut.cancel('00000000-0000-4000-8000-000000000002', aPrincipal());
    expect(ports.eventRelay.stagedEvents().map((e) => [e.type, e.toolName])).toEqual([
      [HealthEventType.MAINTENANCE_STARTED, 'other-tool'],
      [HealthEventType.MAINTENANCE_ENDED, 'other-tool'],
    ]);
    await expect(sut.cancel(aMaintenanceWindow().id, aPrincipal())).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('answers a view without waiting only while its snapshot covers now, and then as viewFor does (P347)', async () => {
    const { sut, clock } = newTestService(MaintenanceService, { env: { MAINTENANCE_CACHE_MS: '60000' } });
    const context = { userId: 'u', tenantId: 't' };
    await sut.schedule(aScheduleRequest({ from: at(HOUR), until: at(2 * HOUR) }), aPrincipal());
    const read = await sut.viewFor('example-tool', context, clock.now());
    expect(read.upcoming).toMatchObject({ from: at(HOUR) });
    expect(sut.viewIfFresh('example-tool', context, clock.now())).toEqual(read);
    clock.set(at(HOUR + MINUTE)); // far past the snapshot: a read is due again
    expect(sut.viewIfFresh('example-tool', context, clock.now())).toBeNull();
    expect((await sut.viewFor('example-tool', context, clock.now())).inForce).toMatchObject({ from: at(HOUR), until: at(2 * HOUR) });
  });

  describe('a recurring series (P190–P193)', () => {
    const DAY = 24 * HOUR;
    const series = () => aScheduleRequest({ rrule: 'FREQ=DAILY', timeZone: 'Europe/Berlin' });
    const CONTEXT = { sessionId: 's', userId: 'u', projectId: 'p', tenantId: 't' };

    it('each occurrence governs calls and counts as in force; a skipped one does neither', async () => {
      const { sut, clock } = newTestService(MaintenanceService);
      const stored = await sut.schedule(series(), aPrincipal());
      clock.set(at(DAY + HOUR + MINUTE));
      const view = await sut.viewFor('example-tool', CONTEXT, clock.now());
      expect(view.inForce).toMatchObject({ seriesId: stored.id, from: at(DAY + HOUR), until: at(DAY + 2 * HOUR) });
      expect(await sut.inForceCount(clock.now())).toBe(1);
      await sut.skipOccurrence(stored.id, at(2 * DAY + HOUR), aPrincipal());
      clock.set(at(2 * DAY + HOUR + MINUTE));
      expect((await sut.viewFor('example-tool', CONTEXT, clock.now())).inForce).toBeNull();
      expect(await sut.inForceCount(clock.now())).toBe(0);
      expect(await sut.list({})).toEqual([expect.objectContaining({ id: stored.id })]);
    });

    it("ticks write each occurrence's warning, start and end once, and a series ended and over is done", async () => {
      const { sut, ports, clock } = newTestService(MaintenanceService);
      const stored = await sut.schedule(series(), aPrincipal());
      await sut.endSeries(stored.id, at(DAY), aPrincipal());
      for (const offset of [50 * MINUTE, 55 * MINUTE, HOUR, HOUR + MINUTE, 2 * HOUR, 3 * HOUR, DAY + HOUR]) {
        clock.set(at(offset));
        await sut.emitDueEvents();
      }
      expect(ports.eventRelay.stagedEvents().map((e) => e.type)).toEqual([
        HealthEventType.MAINTENANCE_STARTING,
        HealthEventType.MAINTENANCE_STARTED,
        HealthEventType.MAINTENANCE_ENDED,
      ]);
      expect(ports.maintenanceWindows.windows.get(stored.id)?.eventsDone).toBe(true);
    });
  });
});
