import { Field, InputType, Int } from '@nestjs/graphql';
import { IsDate, IsEnum, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { TenantField } from '../../shapes/write-fields';
import { MAX_PIN_REASON_LENGTH } from '../../domain/pin';
import { PinStatus, Scope } from '../../shapes/enums.registration';
import { HealthKeyInput } from '../../shapes/health-key.input';

export const PURGE_BATCH_DEFAULT = 1000;
export const PURGE_BATCH_MAX = 5000;

/** The pinned status wins over every wider entry until `until` (D4b). */
@InputType('PinToolHealthInput', { description: 'The entry to pin, the status to hold, until when and why.' })
export class PinToolHealthInput extends HealthKeyInput {
  @Field(() => PinStatus, { description: 'The status to hold: OK or DOWN.' })
  @IsEnum(PinStatus)
  status: PinStatus;

  @Field({ description: 'when the pin ends; must be in the future' })
  @IsDate()
  until: Date;

  @Field({ description: 'Why you pin it; shown with the entry.' })
  @IsString()
  @MaxLength(MAX_PIN_REASON_LENGTH)
  reason: string;

  @TenantField()
  tenantId?: string | null;
}

/** Bulk hard delete by scope and age, one capped batch per call (D14). */
@InputType('PurgeToolHealthInput', { description: 'Which entries to delete: a scope and an instant.' })
export class PurgeToolHealthInput {
  @Field(() => Scope, { description: 'Delete entries of this scope only.' })
  @IsEnum(Scope)
  scope: Scope;

  @Field({ description: 'documents whose updatedAt is before this instant (not after now)' })
  @IsDate()
  olderThan: Date;

  @Field(() => Int, { defaultValue: PURGE_BATCH_DEFAULT, description: `batch size, 1 … ${PURGE_BATCH_MAX}` })
  @IsInt()
  @Min(1)
  @Max(PURGE_BATCH_MAX)
  limit: number;
}
