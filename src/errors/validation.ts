import { ExecutionContext, Type, ValidationError, ValidationPipe, createParamDecorator } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import { DomainError, DomainErrorCode } from '../domain/domain-error';

/** class-validator's default text for a failed @IsDate(), replaced by what the client must send. */
const DATE_MESSAGES: Record<string, string> = { isDate: 'must be an ISO 8601 date-time, e.g. 2026-05-23T14:30:00Z' };

/**
 * Class-validator messages begin with the property ("toolName must be …", "property foo
 * should not exist"); the field path replaces that name, so each message names its field once
 * ("context.userId must be a string", not "context.userId: userId must be a string") (P64).
 */
export function fieldMessage(field: string, property: string, constraint: string, message: string): string {
  const escaped = property.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const each = new RegExp(`^each value in (?:property )?${escaped} (.*)$`, 's').exec(message)?.[1];
  if (each !== undefined) return `each value in ${field} ${each}`;
  const rest = new RegExp(`^(?:property )?${escaped} (.*)$`, 's').exec(message)?.[1];
  if (DATE_MESSAGES[constraint] && (rest ?? message).endsWith('must be a Date instance')) return `${field} ${DATE_MESSAGES[constraint]}`;
  return rest === undefined ? `${field}: ${message}` : `${field} ${rest}`;
}

function flatten(errors: ValidationError[], parent = ''): { field: string; message: string }[] {
  return errors.flatMap((e) => {
    const field = parent ? (/^\d+$/.test(e.property) ? `${parent}[${e.property}]` : `${parent}.${e.property}`) : e.property;
    const own = Object.entries(e.constraints ?? {}).map(([constraint, message]) => ({
      field,
      message: fieldMessage(field || 'body', e.property, constraint, message),
    }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/** Whitelisting validation; the 400 names the first offending field and lists all of them. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const problems = flatten(errors);
      const first = problems[0] ?? { field: 'body', message: 'body is invalid' };
      return new DomainError(DomainErrorCode.INVALID_ARGUMENT, problems.map((p) => p.message).join('; '), first.field || 'body');
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Hot routes: compiled JSON-schema validation instead of class-validator (docs/performance.md).

/** A JSON Schema (draft-07 subset Ajv compiles); `nullable` as in OpenAPI 3.0. */
export type JsonSchema = Record<string, unknown>;

const ajv = new Ajv({
  allErrors: false,
  strict: true,
  allowUnionTypes: true,
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
});

const ARTICLE: Record<string, string> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  boolean: 'true or false',
  number: 'a number',
  integer: 'an integer',
};

/** "context.userId", "errorSignatures[3]": the field names class-validator's pipe reported. */
function fieldOf(instancePath: string, child?: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

function describeError(error: ErrorObject, patternMessages: ReadonlyMap<string, string>): { field: string; message: string } {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { field: fieldOf(error.instancePath, String(p.missingProperty)), message: 'is required' };
    case 'additionalProperties':
      return { field: fieldOf(error.instancePath, String(p.additionalProperty)), message: 'should not exist' };
    case 'pattern':
      return { field: fieldOf(error.instancePath), message: patternMessages.get(String(p.pattern)) ?? `must match ${String(p.pattern)}` };
    case 'enum':
      return {
        field: fieldOf(error.instancePath),
        message: `must be one of ${(p.allowedValues as unknown[]).filter((v) => v !== null).join(', ')}`,
      };
    case 'type': {
      const types = (Array.isArray(p.type) ? p.type : String(p.type).split(',')).filter((t) => t !== 'null');
      return { field: fieldOf(error.instancePath), message: `must be ${types.map((t) => ARTICLE[t] ?? t).join(' or ')}` };
    }
    case 'maxItems':
      return { field: fieldOf(error.instancePath), message: `must hold at most ${String(p.limit)} items` };
    case 'minItems':
      return { field: fieldOf(error.instancePath), message: `must hold at least ${String(p.limit)} items` };
    case 'maxLength':
      return { field: fieldOf(error.instancePath), message: `must be at most ${String(p.limit)} characters long` };
    default:
      return { field: fieldOf(error.instancePath), message: error.message ?? 'is invalid' };
  }
}

/**
 * Compiles `schema` once (Ajv, the validator Fastify uses for route schemas) into a function
 * that returns the body unchanged or throws the INVALID_ARGUMENT error the ValidationPipe would:
 * a 400 whose message and `field` name the offending field. `patternMessages` maps a pattern's
 * source to a readable message (e.g. the D3a id rule).
 */
export function compileBodyValidator<T>(
  schema: JsonSchema,
  patternMessages: ReadonlyMap<string, string> = new Map(),
): (body: unknown) => T {
  const validate: ValidateFunction = ajv.compile(schema);
  return (body: unknown): T => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new DomainError(DomainErrorCode.INVALID_ARGUMENT, 'body: must be a JSON object', 'body');
    }
    if (validate(body)) return body as T;
    const { field, message } = describeError(validate.errors![0], patternMessages);
    return throwInvalid(field || 'body', message);
  };
}

function throwInvalid(field: string, message: string): never {
  throw new DomainError(DomainErrorCode.INVALID_ARGUMENT, `${field}: ${message}`, field);
}

/**
 * `@SchemaBody(Dto, schema)`: the request body, validated by the compiled schema. A custom
 * parameter decorator, so the global ValidationPipe leaves it alone (no class-validator, no
 * class-transformer instance); it runs after the guard, so a request without a key is still a
 * 401 whatever its body. The OpenAPI document keeps describing the body by the DTO class.
 */
export function SchemaBody(dto: Type<unknown>, schema: JsonSchema, patternMessages?: ReadonlyMap<string, string>): ParameterDecorator {
  const validate = compileBodyValidator<unknown>(schema, patternMessages);
  return createParamDecorator(
    (_data: unknown, ctx: ExecutionContext) => validate(ctx.switchToHttp().getRequest<{ body?: unknown }>().body),
    [
      (target: object, key?: string | symbol) => {
        if (key !== undefined) ApiBody({ type: dto })(target, key, Object.getOwnPropertyDescriptor(target, key)!);
      },
    ],
  )();
}
