import type { Principal } from '../../src/auth/principal';
import { ToolHealthClassification } from '../../src/domain/classification';
import type { ScheduleRequest } from '../../src/domain/maintenance-window';
import { Role } from '../../src/domain/role';
import { ToolErrorCode } from '../../src/domain/tool-error-code';
import type { ChangeCooldownWindowDto, ClearCooldownDto, SetCooldownDto } from '../../src/features/cooldowns/cooldown.dto';
import type { RecordDiagnosisDto } from '../../src/features/diagnoses/diagnosis.dto';
import type { FailureReportDto, SuccessReportDto } from '../../src/features/outcomes/outcome.dto';
import type { ClientDisconnectDto, ClientReconnectDto } from '../../src/features/system-writes/client-session.dto';
import type { MarkAvailableDto, MarkIntermittentDto, MarkUnavailableDto } from '../../src/features/system-writes/system-write.dto';
import { HOUR, aCallContext, aHealthKey, at } from './documents';

/**
 * Request builders: the bodies the services take, as a validated request would hand them over
 * (the DTO classes are only types here, so no validator runs). Defaults address aHealthKey().
 */

/** A failed dispatch of `example-tool`: BACKEND_FAILED `http-502`, from aCallContext(). */
export function aFailureReport(overrides: Partial<FailureReportDto> = {}): FailureReportDto {
  return {
    toolName: 'example-tool',
    context: aCallContext(),
    code: ToolErrorCode.BACKEND_FAILED,
    errorSignature: 'http-502',
    ...overrides,
  };
}

/** A successful dispatch of `example-tool` from aCallContext(). */
export function aSuccessReport(overrides: Partial<SuccessReportDto> = {}): SuccessReportDto {
  return { toolName: 'example-tool', context: aCallContext(), ...overrides };
}

/** A system write (§7 first row): `example-tool` unreachable at GLOBAL, from the `monitor`. */
export function aSystemWrite(overrides: Partial<MarkUnavailableDto> = {}): MarkUnavailableDto {
  return { ...aHealthKey(), source: 'monitor', code: ToolErrorCode.BACKEND_UNREACHABLE, ...overrides };
}

export function aMarkIntermittent(overrides: Partial<MarkIntermittentDto> = {}): MarkIntermittentDto {
  return { ...aHealthKey(), source: 'monitor', code: ToolErrorCode.BACKEND_FAILED, ...overrides };
}

export function aMarkAvailable(overrides: Partial<MarkAvailableDto> = {}): MarkAvailableDto {
  return { ...aHealthKey(), source: 'monitor', ...overrides };
}

/** A client session's tools going away (D15b). */
export function aClientDisconnect(overrides: Partial<ClientDisconnectDto> = {}): ClientDisconnectDto {
  return { source: 'gateway', tools: [{ name: 'client-tool-a', description: 'A client tool' }, { name: 'client-tool-b' }], ...overrides };
}

export function aClientReconnect(overrides: Partial<ClientReconnectDto> = {}): ClientReconnectDto {
  return { source: 'gateway', tools: ['client-tool-a', 'client-tool-b'], ...overrides };
}

/** An Agrajag verdict on aHealthKey(): TECHNICALLY_BROKEN. */
export function aDiagnosisRequest(overrides: Partial<RecordDiagnosisDto> = {}): RecordDiagnosisDto {
  return { ...aHealthKey(), classification: ToolHealthClassification.TECHNICALLY_BROKEN, by: 'agrajag-1', ...overrides };
}

/** The checker's cooldown (§7 second row): INTERMITTENT `http-502`, scope-wide, the ladder's own window. */
export function aSetCooldown(overrides: Partial<SetCooldownDto> = {}): SetCooldownDto {
  return { ...aHealthKey(), errorSignature: 'http-502', classification: ToolHealthClassification.INTERMITTENT, ...overrides };
}

export function aClearCooldown(overrides: Partial<ClearCooldownDto> = {}): ClearCooldownDto {
  return { ...aHealthKey(), errorSignature: 'http-502', ...overrides };
}

export function aChangeCooldownWindow(overrides: Partial<ChangeCooldownWindowDto> = {}): ChangeCooldownWindowDto {
  return { ...aClearCooldown(), windowMs: 10 * 60_000, ...overrides };
}

/** A maintenance window of aHealthKey() for the hour after the next one (asked for at T0). */
export function aScheduleRequest(overrides: Partial<ScheduleRequest> = {}): ScheduleRequest {
  return { ...aHealthKey(), from: at(HOUR), until: at(2 * HOUR), reason: 'database upgrade', ...overrides };
}

/** An API key's principal: `ops`, an admin. */
export function aPrincipal(overrides: Partial<Principal> = {}): Principal {
  return { name: 'ops', roles: [Role.ADMIN], ...overrides };
}
