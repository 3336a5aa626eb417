import { applyDecorators } from '@nestjs/common';
import { IsEnum, IsString, MaxLength } from 'class-validator';
import { ToolErrorCode } from './enums.registration';
import { IdField } from './health-key.dto';
import { IsIsoDateTime } from './iso-date-time';
import { ShapeField } from './shape-field';

// Properties several write shapes share, each described once (P112).

export const MAX_NOTE_LENGTH = 2000;

/** An instant: a DateTime in GraphQL; in REST an RFC 3339 string (IsIsoDateTime), `date-time` in OpenAPI. */
export function DateTimeField(description: string, options: { optional?: boolean; example?: string } = {}): PropertyDecorator {
  const { optional = false, example } = options;
  const openapi = { type: String, format: 'date-time', ...(example === undefined ? {} : { example }) };
  return applyDecorators(ShapeField(description, { type: () => Date, optional, openapi }), IsIsoDateTime());
}

export function NoteField(): PropertyDecorator {
  return applyDecorators(
    ShapeField('What was observed, in words.', {
      type: () => String,
      optional: true,
      openapi: { type: String, maxLength: MAX_NOTE_LENGTH },
    }),
    IsString(),
    MaxLength(MAX_NOTE_LENGTH),
  );
}

export function ExpectedRecoveryField(): PropertyDecorator {
  return DateTimeField('When the tool is expected to work again, if known.', { optional: true });
}

export function ErrorCodeField(options: { optional?: boolean } = {}): PropertyDecorator {
  return applyDecorators(
    ShapeField('What the dispatch saw when the tool failed, if anything.', {
      type: () => ToolErrorCode,
      optional: options.optional,
      openapi: { enum: ToolErrorCode, enumName: 'ToolErrorCode' },
    }),
    IsEnum(ToolErrorCode),
  );
}

/** The tenant of a write: whose history limit the entry keeps (D12). */
export function TenantField(): PropertyDecorator {
  return IdField('The tenant (organisation) the entry belongs to, for its history limit.', { optional: true });
}
