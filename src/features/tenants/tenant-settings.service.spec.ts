import { MINUTE, aDiagnosisRequest, aKeyAt, aPrincipal, at } from '../../../test/factories';
import { newTestService } from '../../../test/support/new-test-service';
import { ToolHealthClassification } from '../../domain/classification';
import { Scope } from '../../domain/scope';
import { DiagnosisService } from '../diagnoses/diagnosis.service';
import { TenantSettingsService } from './tenant-settings.service';

describe('TenantSettingsService (service tier)', () => {
  it('a tenant without settings reads the default history limit as its effective one', async () => {
    const { sut } = newTestService(TenantSettingsService, { env: { HISTORY_LIMIT_DEFAULT: '7' } });
    expect(await sut.get('tenant-1')).toEqual({
      tenantId: 'tenant-1',
      historyLimit: null,
      effectiveHistoryLimit: 7,
      updatedAt: null,
      updatedBy: null,
    });
  });

  it('stores the limit with who set it and when (the clock), and reads it back', async () => {
    const { sut, clock, ports } = newTestService(TenantSettingsService);
    clock.advance(MINUTE);
    const view = await sut.setHistoryLimit('tenant-1', 3, aPrincipal());
    expect(view).toEqual({ tenantId: 'tenant-1', historyLimit: 3, effectiveHistoryLimit: 3, updatedAt: at(MINUTE), updatedBy: 'key:ops' });
    expect(await sut.get('tenant-1')).toEqual(view);
    expect(ports.tenantSettings.settings.get('tenant-1')).toMatchObject({ historyLimit: 3 });
  });

  it('null goes back to the default', async () => {
    const { sut } = newTestService(TenantSettingsService);
    await sut.setHistoryLimit('tenant-1', 3, aPrincipal());
    expect(await sut.setHistoryLimit('tenant-1', null, aPrincipal())).toMatchObject({ historyLimit: null, effectiveHistoryLimit: 20 });
  });

  it("a new limit applies to this instance's next write at once (the write path's cached limit is forgotten)", async () => {
    const context = newTestService(TenantSettingsService);
    // The same write path as the settings service: a diagnosis service built on the same context.
    const diagnoses = context.service(DiagnosisService);
    const key = aKeyAt(Scope.TENANT);
    const write = (note: string) =>
      diagnoses.recordDiagnosis(
        aDiagnosisRequest({
          ...key,
          note,
          classification: note.length % 2 ? ToolHealthClassification.WORKING : ToolHealthClassification.TECHNICALLY_BROKEN,
        }),
      );
    await write('aa');
    await write('b');
    await context.sut.setHistoryLimit('tenant-1', 1, aPrincipal());
    const { entry } = await write('cc');
    expect(entry!.history.map((h) => h.note)).toEqual(['cc']);
  });

  it('rejects a tenant id that is not an id', async () => {
    const { sut, ports } = newTestService(TenantSettingsService);
    await expect(sut.setHistoryLimit('not a tenant', 3, aPrincipal())).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      field: 'tenantId',
    });
    await expect(sut.get('')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(ports.tenantSettings.settings.size).toBe(0);
  });
});
