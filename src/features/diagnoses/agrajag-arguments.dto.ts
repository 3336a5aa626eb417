import { applyDecorators } from '@nestjs/common';
import { IsEnum, IsIn, IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ArgumentField } from '../../shapes/arguments-schema';
import { IsId } from '../../shapes/health-key.dto';
import { IsIsoDateTime } from '../../shapes/iso-date-time';
import { MAX_NOTE_LENGTH } from '../../shapes/write-fields';
import { ToolHealthClassification } from '../../domain/classification';
import { MAX_WINDOW_MS } from '../../domain/cooldown-window';
import { Scope } from '../../domain/scope';
import { ToolErrorCode } from '../../domain/tool-error-code';

// The arguments of the four Agrajag tools, each described once (P115): the JSON Schema the model
// reads, Ajv's validation and the OpenAPI components are all read off these classes. They speak
// to the model ("what you observed"; seconds, not milliseconds; scopeId left out for GLOBAL),
// hence their own wording beside the REST DTOs' validators (IsId, IsIsoDateTime, the note limit).
// Ajv validates them; they are never instantiated, so their values stay JSON (instants are strings).

export const ToolNameArgument = () => applyDecorators(ArgumentField('The tool the verdict is about, e.g. "jira_search".'), IsId());

const NoteArgument = (options: { optional?: boolean } = {}) =>
  applyDecorators(
    ArgumentField('What you observed, for the next diagnosis.', options),
    IsString(),
    MinLength(1),
    MaxLength(MAX_NOTE_LENGTH),
  );

/** The key of the entry a tool is about; the MCP read tool tool_health_get takes exactly this (P71). */
export class HealthKeyArguments {
  @ToolNameArgument()
  toolName: string;

  @ArgumentField('Who is affected: SESSION, USER, PROJECT, TENANT or GLOBAL.')
  @IsEnum(Scope)
  scope: Scope;

  @ArgumentField('The session, user, project or tenant id. Omit for GLOBAL.', { optional: true })
  @IsId()
  scopeId?: string;
}

export class SetUnavailableArguments extends HealthKeyArguments {
  @ArgumentField()
  @IsIn([
    ToolHealthClassification.TECHNICALLY_BROKEN,
    ToolHealthClassification.USER_SPECIFIC_TECHNICAL,
    ToolHealthClassification.INTERMITTENT,
  ])
  classification: ToolHealthClassification;

  @NoteArgument()
  note: string;

  @ArgumentField('An ISO 8601 instant, e.g. 2026-05-23T14:30:00Z.', { optional: true })
  @IsIsoDateTime()
  expectedRecoveryAt?: string;

  @ArgumentField('The error signature diagnosed, e.g. "http-502"; sets its cooldown.', { optional: true })
  @IsId()
  errorSignature?: string;

  @ArgumentField(undefined, { optional: true })
  @IsIn([ToolErrorCode.BACKEND_UNREACHABLE, ToolErrorCode.BACKEND_FAILED])
  code?: ToolErrorCode;
}

export class SetAvailableArguments extends HealthKeyArguments {
  @NoteArgument()
  note: string;
}

export class SetCooldownArguments extends HealthKeyArguments {
  @ArgumentField('e.g. "http-403", "timeout-30s".')
  @IsId()
  errorSignature: string;

  @ArgumentField()
  @IsIn(Object.values(ToolHealthClassification).filter((c) => c !== ToolHealthClassification.WORKING))
  classification: ToolHealthClassification;

  // Seconds, not milliseconds: the unit a model estimates in; the upper bound is the cooldown window's.
  @ArgumentField('Override the default window.', { optional: true })
  @IsInt()
  @Min(1)
  @Max(MAX_WINDOW_MS / 1000)
  durationSeconds?: number;

  @ArgumentField('Only for a user-specific cooldown.', { optional: true })
  @IsId()
  userId?: string;

  @NoteArgument({ optional: true })
  note?: string;
}

export class ClearArguments extends HealthKeyArguments {
  @NoteArgument({ optional: true })
  note?: string;
}
