import { applyDecorators } from '@nestjs/common';
import { InputType } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsEnum, IsOptional, IsString, MaxLength } from 'class-validator';
import { HealthKeyDto, IsId } from '../../shapes/health-key.dto';
import { ShapeField } from '../../shapes/shape-field';
import { DateTimeField } from '../../shapes/write-fields';
import { ID_PATTERN } from '../../domain/health-key';
import { MAX_MAINTENANCE_REASON_LENGTH, WindowSettings } from '../../domain/maintenance-window';
import { RequestFields, changeRequestOf, createRequestOf } from '../../shapes/request-of';
import { MAX_RRULE_LENGTH } from '../../domain/recurrence';
import { Scope } from '../../domain/scope';

/**
 * The request field of each setting of a window, for the schedule request and (`change`: optional,
 * "unchanged when absent") the change request, which are both derived from this table. Keyed by
 * the domain's WindowSettings, so a setting the domain adds without its field here (or the
 * reverse) fails `tsc`.
 */
const WINDOW_SETTING_FIELDS: RequestFields<WindowSettings> = {
  from: (change) =>
    change
      ? DateTimeField('A new start; only before the window began.', { optional: true })
      : DateTimeField('When the window begins (now or past: it begins at once).', { example: '2099-05-23T18:00:00Z' }),
  until: (change) =>
    change
      ? DateTimeField('A new end; unchanged when absent.', { optional: true })
      : DateTimeField('When the tool is expected back: after from, in the future, at most 31 days after from.', {
          example: '2099-05-23T20:00:00Z',
        }),
  reason: (change) => (change ? ReasonField({ optional: true }) : ReasonField({ example: 'Jira upgrade to 10.3' })),
};

/** A window to schedule: one definition (P112), REST body and ScheduleMaintenanceInput: its key, its settings, and a rule to repeat it. */
@InputType({ isAbstract: true })
export class ScheduleMaintenanceDto extends createRequestOf<WindowSettings, keyof WindowSettings, HealthKeyDto>(
  'ScheduleMaintenanceBase',
  WINDOW_SETTING_FIELDS,
  HealthKeyDto,
) {
  @ShapeField(
    'Makes the window a recurring series: an RFC 5545 RRULE value (FREQ DAILY/WEEKLY/MONTHLY/YEARLY with INTERVAL, COUNT or UNTIL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS, WKST). from/until are the first occurrence: its local start in timeZone and the duration of each.',
    { type: () => String, optional: true, openapi: { type: String, maxLength: MAX_RRULE_LENGTH, example: 'FREQ=WEEKLY;BYDAY=SA' } },
  )
  @IsString()
  @MaxLength(MAX_RRULE_LENGTH)
  rrule?: string | null;

  @ShapeField("The IANA time zone the rule's local times are read in; required with rrule.", {
    type: () => String,
    optional: true,
    openapi: { type: String, maxLength: 64, example: 'Europe/Berlin' },
  })
  @IsString()
  @MaxLength(64)
  timeZone?: string | null;
}

/** One occurrence of a series to skip: REST body and, with the id, SkipMaintenanceOccurrenceInput (P191). */
@InputType({ isAbstract: true })
export class SkipOccurrenceDto {
  @DateTimeField("The start the series' rule gives the occurrence (its RECURRENCE-ID), e.g. as the .ics feed lists it.", {
    example: '2099-05-23T16:00:00Z',
  })
  occurrence: Date;
}

/** One occurrence of a series to change alone: REST body and, with the id, ChangeMaintenanceOccurrenceInput (P191). */
@InputType({ isAbstract: true })
export class ChangeOccurrenceDto extends SkipOccurrenceDto {
  @DateTimeField('A new start of this occurrence; only before it began.', { optional: true })
  from?: Date | null;

  @DateTimeField('A new end of this occurrence; unchanged when absent.', { optional: true })
  until?: Date | null;

  @ReasonField({ optional: true })
  reason?: string | null;
}

/** When a series ends: REST body and, with the id, EndMaintenanceSeriesInput (P191). */
@InputType({ isAbstract: true })
export class EndSeriesDto {
  @DateTimeField('No occurrence starts at or after this instant (not in the past); now when absent.', { optional: true })
  at?: Date | null;
}

/** What changes in a window; absent fields stay. REST body (the id in the path) and, with the id, ChangeMaintenanceInput (P112). */
@InputType({ isAbstract: true })
export class ChangeMaintenanceDto extends changeRequestOf<WindowSettings>('ChangeMaintenanceBase', WINDOW_SETTING_FIELDS) {}

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
