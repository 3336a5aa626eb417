import { InputType, OmitType, PickType } from '@nestjs/graphql';
import { IdField } from '../../shapes/health-key.dto';
import { RecordDiagnosisDto } from './diagnosis.dto';

// The GraphQL inputs of diagnosis (P112), derived from the REST shape.

/** §7 third row: a verdict, applied per D11. An admin may leave `by` out: it is then the admin. */
@InputType('RecordDiagnosisInput', { description: 'The entry and the diagnosis verdict.' })
export class RecordDiagnosisInput extends OmitType(RecordDiagnosisDto, ['by'] as const, InputType) {
  @IdField('Who diagnosed, e.g. agrajag-7f3c; default "admin:<key name>".', { optional: true })
  by?: string | null;
}

/** tool_health_clear: back to OK, every active cooldown of the entry ended; the key and a note. */
@InputType('ClearToolHealthInput', { description: 'The entry to reset to OK.' })
export class ClearToolHealthInput extends PickType(RecordDiagnosisDto, ['scope', 'scopeId', 'toolName', 'note'] as const, InputType) {}
