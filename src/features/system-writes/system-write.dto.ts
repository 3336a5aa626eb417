import { InputType } from '@nestjs/graphql';
import { HealthKeyDto, IdField } from '../../shapes/health-key.dto';
import { DateTimeField, ErrorCodeField, ExpectedRecoveryField, NoteField, TenantField } from '../../shapes/write-fields';
import { ToolErrorCode } from '../../domain/tool-error-code';

/**
 * §7 first row: a binary event seen by system code. The one definition (P112) of the REST bodies
 * and, through Mark…Input (where an admin may leave `source` out), the GraphQL inputs.
 */
@InputType({ isAbstract: true })
export class SystemWriteDto extends HealthKeyDto {
  @IdField('Who saw it, e.g. a gateway; stored as by: "system:<source>".', { example: 'foot-gateway' })
  source: string;

  @NoteField()
  note?: string | null;

  @TenantField()
  tenantId?: string | null;
}

@InputType({ isAbstract: true })
export class MarkUnavailableDto extends SystemWriteDto {
  @ErrorCodeField()
  code: ToolErrorCode;

  @DateTimeField('When it went down; default now.', { optional: true })
  since?: Date | null;

  @ExpectedRecoveryField()
  expectedRecoveryAt?: Date | null;
}

@InputType({ isAbstract: true })
export class MarkIntermittentDto extends SystemWriteDto {
  @ErrorCodeField({ optional: true })
  code?: ToolErrorCode | null;

  @ExpectedRecoveryField()
  expectedRecoveryAt?: Date | null;
}

@InputType({ isAbstract: true })
export class MarkAvailableDto extends SystemWriteDto {}
