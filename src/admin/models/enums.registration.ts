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
registerEnumType(Scope, { name: 'Scope', description: 'Who a health entry affects (§4), narrow to wide.' });
registerEnumType(ToolStatus, { name: 'ToolStatus', description: 'Whether the tool is usable (§2).' });
registerEnumType(ToolErrorCode, { name: 'ToolErrorCode', description: 'Dispatch codes (§3.1).' });
registerEnumType(ToolHealthClassification, { name: 'ToolHealthClassification', description: 'Diagnostic classifications (§3.2).' });
registerEnumType(CascadeReason, { name: 'CascadeReason', description: 'Why a tool reads as it does in a context (§4, D4, D4b, D5).' });
registerEnumType(HealthEventType, { name: 'HealthEventType', description: 'What an outbox event records (D13).' });
registerEnumType(PinStatus, { name: 'PinStatus', description: 'The statuses an admin can pin an entry to (D4b).' });

export { CascadeReason, HealthEventType, Scope, ToolErrorCode, ToolHealthClassification, ToolStatus };
