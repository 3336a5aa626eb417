import { MINUTE, aDiagnosisRequest, aDownDocument, aHealthKey, aKeyAt, at } from '../../../test/factories';
import { newTestService } from '../../../test/support/new-test-service';
import { ToolHealthClassification } from '../../domain/classification';
import { encodeKey } from '../../domain/health-key';
import { HealthEventType } from '../../domain/health-events';
import { Scope } from '../../domain/scope';
import { ToolStatus } from '../../domain/tool-status';
import { AgrajagToolName } from './agrajag-tools';
import { DiagnosisService } from './diagnosis.service';

const ID = encodeKey(aHealthKey());

describe('DiagnosisService (service tier)', () => {
  it('a TECHNICALLY_BROKEN verdict stores DOWN with the verdict as lastDiagnosis and in history, and commits STATUS_CHANGED', async () => {
    const { sut, ports } = newTestService(DiagnosisService);
    const { entry, cooldownRefused } = await sut.recordDiagnosis(aDiagnosisRequest({ note: 'gateway gone' }));
    expect(cooldownRefused).toBeNull();
    expect(ports.toolHealth.stored(ID)).toEqual(entry);
    expect(entry).toMatchObject({
      status: ToolStatus.DOWN,
      lastCheckedAt: at(),
      lastDiagnosis: { classification: ToolHealthClassification.TECHNICALLY_BROKEN, by: 'agrajag-1', note: 'gateway gone', at: at() },
      history: [{ status: ToolStatus.DOWN, by: 'agrajag-1' }],
    });
    expect(ports.toolHealth.pendingEvents(ID).map((e) => e.type)).toContain(HealthEventType.STATUS_CHANGED);
  });

  it('keeps history to HISTORY_LIMIT_DEFAULT entries, newest last (D12)', async () => {
    const { sut, clock } = newTestService(DiagnosisService, { env: { HISTORY_LIMIT_DEFAULT: '3' } });
    const notes = ['1', '2', '3', '4', '5'];
    let entry;
    for (const note of notes) {
      clock.advance(MINUTE);
      const classification = Number(note) % 2 ? ToolHealthClassification.TECHNICALLY_BROKEN : ToolHealthClassification.WORKING;
      entry = (await sut.recordDiagnosis(aDiagnosisRequest({ note, classification }))).entry;
    }
    expect(entry!.history.map((h) => h.note)).toEqual(['3', '4', '5']);
  });

  it("a tenant's own history limit governs its documents (tenant settings)", async () => {
    const { sut, ports } = newTestService(DiagnosisService, { env: { HISTORY_LIMIT_DEFAULT: '5' } });
    await ports.tenantSettings.setHistoryLimit('tenant-1', 1, 'key:ops', at());
    const key = aKeyAt(Scope.TENANT);
    await sut.recordDiagnosis(aDiagnosisRequest({ ...key, note: 'first' }));
    const { entry } = await sut.recordDiagnosis(
      aDiagnosisRequest({ ...key, note: 'second', classification: ToolHealthClassification.WORKING }),
    );
    expect(entry!.history.map((h) => h.note)).toEqual(['second']);
  });

  it('a WORKING verdict brings a DOWN entry back to OK', async () => {
    const { sut, ports } = newTestService(DiagnosisService);
    ports.toolHealth.seed(aDownDocument());
    const { entry } = await sut.recordDiagnosis(aDiagnosisRequest({ classification: ToolHealthClassification.WORKING }));
    expect(entry).toMatchObject({ status: ToolStatus.OK, version: 2 });
  });

  it("a user's USER_PERMISSION verdict sets that user's cooldown and leaves the shared status alone", async () => {
    const { sut, ports } = newTestService(DiagnosisService);
    ports.toolHealth.seed(aDownDocument());
    const { entry } = await sut.recordDiagnosis(
      aDiagnosisRequest({ classification: ToolHealthClassification.USER_PERMISSION, userId: 'user-1', errorSignature: 'http-403' }),
    );
    expect(entry).toMatchObject({ status: ToolStatus.DOWN, history: [expect.anything()] });
    expect(entry!.cooldowns).toEqual([expect.objectContaining({ userId: 'user-1', errorSignature: 'http-403' })]);
  });

  it('rejects a key that is not one, writing nothing', async () => {
    const { sut, ports } = newTestService(DiagnosisService);
    await expect(sut.recordDiagnosis(aDiagnosisRequest({ scope: Scope.GLOBAL, scopeId: 'x' }))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(ports.db.toolHealth.size).toBe(0);
  });

  it('clearToolHealth resets to OK, and is NOT_FOUND when nothing is stored', async () => {
    const { sut, ports } = newTestService(DiagnosisService);
    await expect(sut.clearToolHealth(aHealthKey(), 'admin:ops')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    ports.toolHealth.seed(aDownDocument());
    expect(await sut.clearToolHealth(aHealthKey(), 'admin:ops')).toMatchObject({ status: ToolStatus.OK });
  });

  it('the Agrajag tool set_available answers with a summary and the stored entry', async () => {
    const { sut, ports } = newTestService(DiagnosisService);
    ports.toolHealth.seed(aDownDocument());
    const result = await sut.invokeTool(
      AgrajagToolName.SET_AVAILABLE,
      { scope: 'GLOBAL', toolName: 'example-tool', note: 'answers again' },
      'agrajag-2',
    );
    expect(result).toMatchObject({
      tool: AgrajagToolName.SET_AVAILABLE,
      summary: 'example-tool is OK at GLOBAL.',
      entry: { status: ToolStatus.OK },
    });
    expect(ports.toolHealth.stored(ID)!.lastDiagnosis).toMatchObject({ by: 'agrajag-2' });
  });
});
