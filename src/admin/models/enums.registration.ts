import { registerEnumType } from '@nestjs/graphql';
import { ToolHealthClassification } from '../../domain/classification';
import { Scope } from '../../domain/scope';
import { ToolErrorCode } from '../../domain/tool-error-code';
import { ToolStatus } from '../../domain/tool-status';

// The enums live in the pure domain (no @nestjs there); GraphQL learns them here, once.
registerEnumType(Scope, { name: 'Scope', description: 'Who a health entry affects (§4), narrow to wide.' });
registerEnumType(ToolStatus, { name: 'ToolStatus', description: 'Whether the tool is usable (§2).' });
registerEnumType(ToolErrorCode, { name: 'ToolErrorCode', description: 'Dispatch codes (§3.1).' });
registerEnumType(ToolHealthClassification, { name: 'ToolHealthClassification', description: 'Diagnostic classifications (§3.2).' });

export { Scope, ToolErrorCode, ToolHealthClassification, ToolStatus };
