import { applyDecorators } from '@nestjs/common';
import { InputType } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsEnum, IsOptional, IsString, MaxLength } from 'class-validator';
import { HealthKeyDto, IsId } from '../../shapes/health-key.dto';
import { ShapeField } from '../../shapes/shape-field';
import { DateTimeField } from '../../shapes/write-fields';
import { ID_PATTERN } from '../../domain/health-key';
import { MAX_MAINTENANCE_REASON_LENGTH } from '../../domain/maintenance-window';
import { Scope } from '../../domain/scope';

/** A window to schedule: one definition (P112), REST body and ScheduleMaintenanceInput. */
@InputType({ isAbstract: true })
export class ScheduleMaintenanceDto extends HealthKeyDto {
  @DateTimeField('When the window begins (now or past: it begins at once).', { example: '2099-05-23T18:00:00Z' })
  from: Date;

  @DateTimeField('When the tool is expected back: after from, in the future, at most 31 days after from.', {
    example: '2099-05-23T20:00:00Z',
  })
  until: Date;

  @ReasonField({ example: 'Jira upgrade to 10.3' })
  reason: string;
}

/** What changes in a window; absent fields stay. REST body (the id in the path) and, with the id, ChangeMaintenanceInput (P112). */
@InputType({ isAbstract: true })
export class ChangeMaintenanceDto {
  @DateTimeField('A new start; only before the window began.', { optional: true })
  from?: Date | null;

  @DateTimeField('A new end; unchanged when absent.', { optional: true })
  until?: Date | null;

  @ReasonField({ optional: true })
  reason?: string | null;
}

/** Why the tool is under maintenance: shown to callers and read by LLMs. */
function ReasonField(options: { optional?: boolean; example?: string }): PropertyDecorator {
  const { optional, example } = options;
  const openapi = { type: String, maxLength: MAX_MAINTENANCE_REASON_LENGTH, ...(example === undefined ? {} : { example }) };
  return applyDecorators(
    ShapeField(`Why the tool is under maintenance, in words an LLM may read${optional ? '; unchanged when absent' : ''}.`, {
      type: () => String,
      optional,
      openapi,
    }),
    IsString(),
    MaxLength(MAX_MAINTENANCE_REASON_LENGTH),
  );
}

export class ListMaintenanceQueryDto {
  @ApiPropertyOptional({ pattern: ID_PATTERN.source })
  @IsOptional()
  @IsId()
  toolName?: string;

  @ApiPropertyOptional({ enum: Scope, enumName: 'Scope' })
  @IsOptional()
  @IsEnum(Scope)
  scope?: Scope;

  @ApiPropertyOptional({ pattern: ID_PATTERN.source })
  @IsOptional()
  @IsId()
  scopeId?: string;

  @ApiPropertyOptional({ description: 'also windows that ended or were cancelled', default: false })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  includeEnded?: boolean;
}
