import { registerEnumType } from '@nestjs/graphql';
import { CascadeReason } from '../../domain/cascade';
import { ToolHealthClassification } from '../../domain/classification';
import { HealthEventType } from '../../domain/health-events';
import { Scope } from '../../domain/scope';
import { ToolErrorCode } from '../../domain/tool-error-code';
import { ToolStatus } from '../../domain/tool-status';

/** D4b: the statuses a pin can hold (a subset of ToolStatus, same values). */
export const PinStatus = { OK: ToolStatus.OK, DOWN: ToolStatus.DOWN } as const;
export type PinStatus = (typeof PinStatus)[keyof typeof PinStatus];

// The enums live in the pure domain (no @nestjs there); GraphQL learns them here, once.
registerEnumType(Scope, {
  name: 'Scope',
  description: 'Who a health entry affects, narrow to wide: SESSION, USER, PROJECT, TENANT, GLOBAL.',
});
registerEnumType(ToolStatus, { name: 'ToolStatus', description: 'Whether the tool is usable: OK, DEGRADED (works now and then) or DOWN.' });
registerEnumType(ToolErrorCode, {
  name: 'ToolErrorCode',
  description: "What the dispatch saw when a call failed. NOT_REGISTERED and DISALLOWED are not the tool's fault.",
});
registerEnumType(ToolHealthClassification, {
  name: 'ToolHealthClassification',
  description: 'What kind of failure a diagnosis found, or WORKING.',
});
registerEnumType(CascadeReason, {
  name: 'CascadeReason',
  description: 'Why a tool reads as it does in a context: which entry or pin decided, or nothing known.',
});
registerEnumType(HealthEventType, { name: 'HealthEventType', description: 'What an event records.' });
registerEnumType(PinStatus, { name: 'PinStatus', description: 'The statuses an admin can pin an entry to.' });

export { CascadeReason, HealthEventType, Scope, ToolErrorCode, ToolHealthClassification, ToolStatus };
