import { HealthEvent, HealthEventOf, HealthEventPayloads, HealthEventType } from '../../src/domain/health-events';
import { Scope } from '../../src/domain/scope';
import { ToolErrorCode } from '../../src/domain/tool-error-code';
import { ToolStatus } from '../../src/domain/tool-status';

/**
 * An event of the log, typed against the domain union (P154): the GLOBAL entry of jira_search
 * gone DOWN at `at`. Pass what the test is about; `type` and `payload` go together.
 */
export function anEvent<T extends HealthEventType>(
  type: T,
  payload: HealthEventPayloads[T],
  overrides: Partial<Omit<HealthEvent, 'type' | 'payload'>> = {},
): HealthEventOf<T> {
  const at = overrides.at ?? new Date('2026-05-23T14:00:00.000Z');
  return {
    id: `GLOBAL::jira_search:0:3:${type}`,
    docId: 'GLOBAL::jira_search',
    scope: Scope.GLOBAL,
    scopeId: null,
    toolName: 'jira_search',
    status: ToolStatus.DOWN,
    effectiveStatus: ToolStatus.DOWN,
    tenantId: null,
    at,
    ...overrides,
    type,
    payload,
  } as HealthEventOf<T>;
}

/** A STATUS_CHANGED event: OK → DOWN, BACKEND_FAILED, expected back at 14:30 UTC; `payload` overrides parts. */
export function aStatusChange(
  overrides: Partial<Omit<HealthEvent, 'type' | 'payload'>> = {},
  payload: Partial<HealthEventPayloads[HealthEventType.STATUS_CHANGED]> = {},
): HealthEvent {
  return anEvent(
    HealthEventType.STATUS_CHANGED,
    {
      previousStatus: ToolStatus.OK,
      expectedRecoveryAt: new Date('2026-05-23T14:30:00Z'),
      code: ToolErrorCode.BACKEND_FAILED,
      classification: null,
      note: null,
      by: null,
      ...payload,
    },
    overrides,
  );
}
