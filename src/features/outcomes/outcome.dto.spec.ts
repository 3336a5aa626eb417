import 'reflect-metadata';
import fc from 'fast-check';
import { DomainError, DomainErrorCode } from '../../domain/domain-error';
import { compileBodyValidator, createValidationPipe } from '../../errors/validation';
import { FAILURE_REPORT_SCHEMA, FailureReportDto, OUTCOME_PATTERN_MESSAGES, SUCCESS_REPORT_SCHEMA, SuccessReportDto } from './outcome.dto';

/**
 * The hot routes validate with compiled JSON schemas read off the DTOs' decorators
 * (dtoJsonSchema, P80) while the OpenAPI document describes the same DTO classes: these specs
 * prove that reading faithful — the compiled validator answers like the class-validator pipe
 * (accepts the same bodies, names the same field) and documents the same properties.
 */
type Verdict = { ok: true } | { ok: false; field: string | undefined; message: string };

const pipe = createValidationPipe();
async function classValidator(metatype: new () => unknown, body: unknown): Promise<Verdict> {
  try {
    await pipe.transform(body, { type: 'body', metatype, data: undefined });
    return { ok: true };
  } catch (error) {
    const e = error as DomainError;
    return { ok: false, field: e.field, message: e.message };
  }
}
function compiled(validate: (body: unknown) => unknown, body: unknown): Verdict {
  try {
    validate(body);
    return { ok: true };
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    const e = error as DomainError;
    expect(e.code).toBe(DomainErrorCode.INVALID_ARGUMENT);
    return { ok: false, field: e.field, message: e.message };
  }
}

const validateSuccess = compileBodyValidator(SUCCESS_REPORT_SCHEMA, OUTCOME_PATTERN_MESSAGES);
const validateFailure = compileBodyValidator(FAILURE_REPORT_SCHEMA, OUTCOME_PATTERN_MESSAGES);

// @nestjs/swagger's metadata keys (its DECORATORS constants, not exported from the package root).
const DECORATORS = { API_MODEL_PROPERTIES: 'swagger/apiModelProperties', API_MODEL_PROPERTIES_ARRAY: 'swagger/apiModelPropertiesArray' };

function documented(dto: new () => unknown): { names: string[]; required: string[] } {
  const names = (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, dto.prototype) as string[]).map((n) => n.slice(1));
  const required = names.filter(
    (n) => (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, dto.prototype, n) as { required?: boolean }).required !== false,
  );
  return { names: names.sort(), required: required.sort() };
}

describe('outcome body schemas', () => {
  it.each([
    ['success', SuccessReportDto, SUCCESS_REPORT_SCHEMA],
    ['failure', FailureReportDto, FAILURE_REPORT_SCHEMA],
  ] as const)('the %s schema has exactly the properties and required fields the OpenAPI documents', (_, dto, schema) => {
    const { names, required } = documented(dto);
    expect(Object.keys(schema.properties as object).sort()).toEqual(names);
    expect([...(schema.required as string[])].sort()).toEqual(required);
  });

  const context = { sessionId: 's-1', userId: 'alice', projectId: 'p-1', tenantId: 'acme' };
  const success = { toolName: 'jira_search', context, errorSignatures: ['http-502'] };
  const failure = {
    toolName: 'jira_search',
    context,
    code: 'BACKEND_FAILED',
    errorSignature: 'http-502',
    classification: 'INTERMITTENT',
    message: '502',
  };

  // One defect per body, so "the first offending field" is the same for both validators.
  const successCases: [string, unknown][] = [
    ['valid', success],
    ['minimal', { toolName: 'x' }],
    ['nulls for optional fields', { toolName: 'x', context: null, errorSignatures: null }],
    ['context with null levels', { toolName: 'x', context: { userId: null } }],
    ['tool name outside the character set', { ...success, toolName: 'jira search!' }],
    ['tool name too long', { ...success, toolName: 'a'.repeat(257) }],
    ['tool name a number', { ...success, toolName: 42 }],
    ['tool name missing', { context }],
    ['an operator as a user id', { ...success, context: { ...context, userId: { $gt: '' } } }],
    ['unknown context field', { ...success, context: { ...context, teamId: 't' } }],
    ['context a string', { ...success, context: 'alice' }],
    ['unknown top-level field', { ...success, status: 'DOWN' }],
    ['signatures not an array', { ...success, errorSignatures: 'http-502' }],
    ['a bad signature', { ...success, errorSignatures: ['ok', 'bad sig'] }],
    ['too many signatures', { ...success, errorSignatures: Array.from({ length: 51 }, (_, i) => `s${i}`) }],
  ];
  const failureCases: [string, unknown][] = [
    ['valid', failure],
    ['minimal', { toolName: 'x', code: 'NOT_REGISTERED', errorSignature: 'e' }],
    ['nulls for optional fields', { ...failure, context: null, classification: null, message: null }],
    ['unknown code', { ...failure, code: 'ON_FIRE' }],
    ['code missing', { toolName: 'x', errorSignature: 'e' }],
    ['signature missing', { toolName: 'x', code: 'BACKEND_FAILED' }],
    ['bad signature', { ...failure, errorSignature: 'has space' }],
    ['unknown classification', { ...failure, classification: 'MAYBE' }],
    ['message too long', { ...failure, message: 'x'.repeat(4001) }],
    ['message not a string', { ...failure, message: 5 }],
    ['unknown field', { ...failure, retry: true }],
    ['bad session id', { ...failure, context: { sessionId: '' } }],
  ];

  async function agree(dto: new () => unknown, validate: (b: unknown) => unknown, body: unknown): Promise<void> {
    const expected = await classValidator(dto, body);
    const actual = compiled(validate, body);
    expect(actual.ok).toBe(expected.ok);
    if (!expected.ok && !actual.ok) {
      // class-validator names an array field without the index; the compiled one adds it.
      expect(actual.field === expected.field || actual.field?.startsWith(`${expected.field}[`)).toBe(true);
      expect(actual.message.startsWith(`${actual.field}: `)).toBe(true);
    }
  }

  it.each(successCases)('success: %s — same verdict and field as the class-validator pipe', (_, body) =>
    agree(SuccessReportDto, validateSuccess, body),
  );
  it.each(failureCases)('failure: %s — same verdict and field as the class-validator pipe', (_, body) =>
    agree(FailureReportDto, validateFailure, body),
  );

  it('says what a valid id looks like', () => {
    const verdict = compiled(validateSuccess, { toolName: 'a b' });
    expect(verdict).toEqual({ ok: false, field: 'toolName', message: 'toolName: must be 1-256 characters of A-Z a-z 0-9 . _ : @ / -' });
    expect(compiled(validateFailure, { ...failure, code: 'X' })).toMatchObject({
      field: 'code',
      message: expect.stringContaining('BACKEND_FAILED'),
    });
    expect(compiled(validateSuccess, { ...success, errorSignatures: ['ok', 'bad sig'] })).toMatchObject({ field: 'errorSignatures[1]' });
  });

  it.each([[[success]], ['jira'], [null], [undefined]])('a body that is not an object (%j) is refused as "body"', async (body) => {
    expect((await classValidator(SuccessReportDto, body)).ok).toBe(false); // which named "toolName" or "0"
    expect(compiled(validateSuccess, body)).toEqual({ ok: false, field: 'body', message: 'body: must be a JSON object' });
    expect(compiled(validateFailure, body)).toMatchObject({ ok: false, field: 'body' });
  });

  it('is stricter than class-validator only where that one let nonsense through: a context array', async () => {
    expect(await classValidator(SuccessReportDto, { toolName: 'x', context: [] })).toEqual({ ok: true });
    expect(compiled(validateSuccess, { toolName: 'x', context: [] })).toMatchObject({ ok: false, field: 'context' });
  });

  it('agrees with the class-validator pipe on generated bodies with one defect', async () => {
    const id = fc.stringMatching(/^[A-Za-z0-9._:@/-]{1,20}$/);
    const junk = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null), fc.constant({}), fc.constant(['a']));
    const ctx = fc.record({ sessionId: id, userId: id, projectId: id, tenantId: id }, { requiredKeys: [] });
    const validBody = fc.record(
      {
        toolName: id,
        context: ctx,
        code: fc.constantFrom('NOT_REGISTERED', 'BACKEND_UNREACHABLE', 'BACKEND_FAILED', 'DISALLOWED'),
        errorSignature: id,
        message: fc.string({ maxLength: 30 }),
      },
      { requiredKeys: ['toolName', 'code', 'errorSignature'] },
    );
    const field = fc.constantFrom('toolName', 'code', 'errorSignature', 'message', 'context.userId', 'extra');
    await fc.assert(
      fc.asyncProperty(validBody, field, junk, async (body, f, value) => {
        const mutated: Record<string, unknown> = { ...body };
        if (f === 'context.userId') mutated.context = { ...(body.context ?? {}), userId: value };
        else mutated[f] = value;
        await agree(FailureReportDto, validateFailure, mutated);
      }),
      { numRuns: 300 },
    );
  });
});
