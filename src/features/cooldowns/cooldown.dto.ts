import { Float, InputType, Int } from '@nestjs/graphql';
import { IsEnum, IsInt, Max, Min } from 'class-validator';
import { ToolHealthClassification } from '../../shapes/enums.registration';
import { HealthKeyDto, IdField } from '../../shapes/health-key.dto';
import { ShapeField } from '../../shapes/shape-field';
import { FAILURE_CLASSIFICATION } from '../../shapes/request-formats';
import { ViewField, ViewFieldOptions, ViewType } from '../../shapes/view-field';
import { TenantField } from '../../shapes/write-fields';
import { LimitQuery } from '../../shapes/page-size';
import { MAX_WINDOW_MS, MIN_WINDOW_MS } from '../../domain/cooldown-window';

/**
 * §7 second row: SystemWritesService.setCooldown(scope, key, signature, classification, duration).
 * The one definition (P112) of the REST body and, through SetCooldownInput, the GraphQL input.
 */
@InputType({ isAbstract: true })
export class SetCooldownDto extends HealthKeyDto {
  @IdField('A stable name for the error, e.g. "http-403".', { example: 'http-403' })
  errorSignature: string;

  @ShapeField('The failure class of the cooldown (not WORKING).', {
    type: () => ToolHealthClassification,
    openapi: FAILURE_CLASSIFICATION,
  })
  @IsEnum(ToolHealthClassification)
  classification: ToolHealthClassification;

  // Float in GraphQL: 30 days of milliseconds is beyond GraphQL's 32-bit Int.
  @ShapeField("The window in milliseconds (1000 … 30 days); when absent, the classification's default.", {
    type: () => Float,
    optional: true,
    openapi: { type: 'integer', minimum: MIN_WINDOW_MS, maximum: MAX_WINDOW_MS, example: 300000 },
  })
  @IsInt()
  @Min(MIN_WINDOW_MS)
  @Max(MAX_WINDOW_MS)
  durationMs?: number | null;

  @IdField('The user, only for a user-specific cooldown (USER_PERMISSION).', { optional: true })
  userId?: string | null;

  @TenantField()
  tenantId?: string | null;
}

/** The cooldown to forget (admin repair): one definition (P112), REST body and ClearCooldownInput. */
@InputType({ isAbstract: true })
export class ClearCooldownDto extends HealthKeyDto {
  @IdField('The error signature of the cooldown, e.g. "http-403".', { example: 'http-403' })
  errorSignature: string;

  @IdField('The user of a user-specific cooldown; null or absent for the scope-wide one.', { optional: true, example: 'example-user' })
  userId?: string | null;
}

/** An admin changes one cooldown's window without restarting it (P85); ChangeCooldownWindowInput in GraphQL (P112). */
@InputType({ isAbstract: true })
export class ChangeCooldownWindowDto extends ClearCooldownDto {
  @ShapeField(
    'The new window in milliseconds (1000 … 30 days). A running cooldown now ends at its start plus this window, or at once if that has passed; later repetitions climb from it.',
    { type: () => Float, openapi: { type: 'integer', minimum: MIN_WINDOW_MS, maximum: MAX_WINDOW_MS, example: 3_600_000 } },
  )
  @IsInt()
  @Min(MIN_WINDOW_MS)
  @Max(MAX_WINDOW_MS)
  windowMs: number;
}

const COUNT: ViewFieldOptions = { type: () => Int, openapi: { type: 'integer' } };

/** What a sweep removed: the REST answer and the GraphQL SweepResult (P115). */
@ViewType('SweepResult', 'What a sweep removed.')
export class SweepResultView {
  @ViewField('How many entries had cooldowns removed.', COUNT) documents: number;
  @ViewField('How many cooldowns were removed.', COUNT) removed: number;
}

export class DueForProbeQueryDto {
  @LimitQuery('How many entries at most.')
  limit?: number;
}
