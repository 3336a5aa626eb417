import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { DomainError, DomainErrorCode } from '../../domain/domain-error';
import { AGRAJAG_TOOLS, AgrajagToolName } from './agrajag-tools';

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv, ['date-time']);

const validators = new Map<string, ValidateFunction>(AGRAJAG_TOOLS.map((t) => [t.name, ajv.compile(t.inputSchema)]));

/** "arguments.scope: must be equal to one of the allowed values (SESSION, USER, …)": LLM-actionable. */
function describe(error: ErrorObject): { field: string; message: string } {
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const field =
    error.keyword === 'required'
      ? (error.params as { missingProperty: string }).missingProperty
      : error.keyword === 'additionalProperties'
        ? (error.params as { additionalProperty: string }).additionalProperty
        : path;
  const allowed = error.keyword === 'enum' ? ` (${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : '';
  const what = error.keyword === 'additionalProperties' ? 'is not a parameter of this tool' : `${error.message ?? 'is invalid'}${allowed}`;
  return { field: `arguments.${field || '(root)'}`, message: `arguments.${field || '(root)'} ${what}` };
}

/** Validates an invocation against the schema the tool publishes; throws a 400 naming the field. */
export function validateAgrajagArguments(name: string, args: unknown): void {
  const validate = validators.get(name);
  if (!validate) {
    throw new DomainError(DomainErrorCode.NOT_FOUND, `no tool named ${name}; the tools are ${Object.values(AgrajagToolName).join(', ')}`);
  }
  if (!validate(args)) throw invalidArguments(validate.errors);
}

function invalidArguments(errors: ErrorObject[] | null | undefined): DomainError {
  const problems = (errors ?? []).map(describe);
  return new DomainError(DomainErrorCode.INVALID_ARGUMENT, problems.map((p) => p.message).join('; '), problems[0]?.field);
}

/** The same checks and messages for another tool's schema (the MCP read tools, P71). */
export function compileArgumentsValidator(schema: Record<string, unknown>): (args: unknown) => void {
  const validate = ajv.compile(schema);
  return (args) => {
    if (!validate(args)) throw invalidArguments(validate.errors);
  };
}
