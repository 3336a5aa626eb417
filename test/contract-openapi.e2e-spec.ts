import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HealthEventType } from '../src/domain/health-events';
import { AGRAJAG_ARGUMENTS_COMPONENT } from '../src/features/diagnoses/agrajag-openapi';
import { DomainErrorCode } from '../src/domain/domain-error';
import { HTTP_STATUS_OF } from '../src/errors/error-codes';
import { OPERATION_ERRORS, OperationId, documentedErrorCodes } from '../src/errors/openapi-errors';
import { OpenApiAnswers } from './support/openapi-answers';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * Issue 14 / P82–P84: the served OpenAPI document as a contract a client generator can use.
 * "Reachable" error statuses are defined per operation in one place (OPERATION_ERRORS,
 * src/errors/openapi-errors.ts); this checks the document against it, and executes the
 * document's own examples against the service.
 */
type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  op: Schema;
}

describe('OpenAPI contract', () => {
  let t: TestApp;
  let doc: Schema;
  let operations: Operation[];

  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.http.get('/docs/openapi.json').expect(200)).body;
    operations = Object.entries(doc.paths as Record<string, Record<string, Schema>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ method, path, op })),
    );
  });
  afterAll(() => t.close());

  const resolve = (schema: Schema): Schema =>
    schema.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;

  it('names every operation for its intent, with a summary and a description', () => {
    const problems = operations.flatMap(({ method, path, op }) => {
      const where = `${method.toUpperCase()} ${path}`;
      const out: string[] = [];
      if (!(op.operationId in OPERATION_ERRORS)) out.push(`${where}: operationId ${op.operationId} is not in OPERATION_ERRORS`);
      if (/Controller_/.test(op.operationId ?? '')) out.push(`${where}: Nest's default operationId ${op.operationId}`);
      if (!op.summary?.trim()) out.push(`${where}: no summary`);
      if (!op.description?.trim() || op.description === op.summary) out.push(`${where}: no description`);
      if (/\b[DP]\d+[a-z]?\b|§/.test(`${op.summary} ${op.description}`)) out.push(`${where}: cites an internal rule id`);
      return out;
    });
    expect(problems).toEqual([]);
    const served = operations.map((o) => o.op.operationId).sort();
    expect(served).toEqual(Object.keys(OPERATION_ERRORS).sort());
    expect(new Set(served).size).toBe(served.length);
  });

  it('is OpenAPI 3.1 that the official schema of 3.1 accepts, each schema compiling under strict JSON Schema 2020-12 (P240, P242)', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(new OpenApiAnswers(doc).documentProblems()).toEqual([]);
    // and the validator is strict: a 3.0 keyword in a schema, or a version it does not know, is an error
    const old = structuredClone(doc);
    old.components.schemas.ErrorBody.properties.field.nullable = true;
    old.info.version = 1;
    expect(new OpenApiAnswers(old).documentProblems()).toEqual(
      expect.arrayContaining([
        expect.stringContaining('openapi 3.1 schema: /info/version'),
        expect.stringContaining('components.schemas.ErrorBody: strict mode: unknown keyword: "nullable"'),
      ]),
    );
  });

  it('says null the JSON Schema 2020-12 way: no `nullable`, no `example` in a schema, a nullable reference as anyOf with null (P240, P241)', () => {
    const leftovers: string[] = [];
    const walk = (node: unknown, where: string, inSchema: boolean) => {
      if (!node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if (k === 'nullable') leftovers.push(`${where}/nullable`);
        if (k === 'example' && inSchema) leftovers.push(`${where}/example`);
        walk(v, `${where}/${k}`, inSchema || k === 'schema' || k === 'schemas');
      }
    };
    walk(doc, '#', false);
    expect(leftovers).toEqual([]);
    const s = doc.components.schemas;
    expect(s.FailureOutcomeView.properties.cooldown).toEqual(
      expect.objectContaining({ anyOf: [{ $ref: '#/components/schemas/CooldownRefView' }, { type: 'null' }] }),
    );
    expect(s.MarkUnavailableDto.properties.scopeId.type).toEqual(['string', 'null']);
    // Swagger UI fills a parameter's input from `example`, never from its schema's `examples`.
    const prefilled = operations.flatMap(({ op }) =>
      ((op.parameters ?? []) as Schema[])
        .filter((p) => p.example !== undefined || p.schema?.example !== undefined)
        .map((p) => `${op.operationId} ${p.name}`),
    );
    expect(prefilled).toEqual([]);
    const lookup = operations.find(({ op }) => op.operationId === 'lookupAvailability')!.op;
    expect(lookup.parameters.find((p: Schema) => p.name === 'sessionId').schema.examples).toEqual(['example-session']);
  });

  it('documents exactly the reachable error statuses of each operation, each with an example of its code', () => {
    const problems: string[] = [];
    for (const { op } of operations) {
      const codes = documentedErrorCodes(op.operationId as OperationId, op.requestBody !== undefined);
      const expected = codes.map((code) => String(HTTP_STATUS_OF[code])).sort();
      const documented = Object.keys(op.responses)
        .filter((s) => !/^2/.test(s) && s !== '304') // success, and "not modified" (a conditional read)
        .sort();
      if (JSON.stringify(documented) !== JSON.stringify(expected))
        problems.push(`${op.operationId}: documents ${documented}, reachable ${expected}`);
      for (const code of codes) {
        const status = HTTP_STATUS_OF[code];
        const content = op.responses[String(status)].content?.['application/json'];
        if (op.operationId === 'checkReadiness' && status === 503) continue; // answers its ProbeView, not ErrorBody
        if (content?.schema?.$ref !== '#/components/schemas/ErrorBody') problems.push(`${op.operationId} ${status}: not an ErrorBody`);
        if (content?.example?.error !== code || content?.example?.statusCode !== status)
          problems.push(`${op.operationId} ${status}: example ${JSON.stringify(content?.example)}`);
      }
    }
    expect(problems).toEqual([]);
    // the rules themselves: 404 only where something named can be missing, 409 only on writes of an entry
    const withCode = (code: DomainErrorCode) =>
      (Object.keys(OPERATION_ERRORS) as OperationId[])
        .filter((id) => (OPERATION_ERRORS[id] as readonly DomainErrorCode[]).includes(code))
        .sort();
    expect(withCode(DomainErrorCode.NOT_FOUND)).toEqual([
      'cancelMaintenance',
      'changeCooldownWindow',
      'changeMaintenance',
      'changeMaintenanceOccurrence',
      'changeWebhookEndpoint',
      'clearCooldown',
      'deleteWebhookEndpoint',
      'endMaintenanceSeries',
      'getHealthEntry',
      'getWebhookEndpoint',
      'invokeAgrajagTool',
      'listWebhookDeliveries',
      'markToolAvailable',
      'pingWebhookEndpoint',
      'resendWebhookDelivery',
      'revokeCalendarFeedToken',
      'rotateWebhookSecret',
      'skipMaintenanceOccurrence',
    ]);
    expect(withCode(DomainErrorCode.CONFLICT)).not.toEqual(
      expect.arrayContaining(['lookupAvailability', 'annotateManifest', 'readEvents', 'getHealthEntry']),
    );
  });

  it('types every count, window and version as integer (no JSON number but a share from 0 to 1)', () => {
    const numbers: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== 'object') return;
      // Issue 39: a rate or a share of a day is a fraction; it says so with its bounds.
      const share = (node as Schema).minimum === 0 && (node as Schema).maximum === 1;
      if ((node as Schema).type === 'number' && !share) numbers.push(where);
      for (const [k, v] of Object.entries(node)) walk(v, `${where}/${k}`);
    };
    walk(doc, '#');
    expect(numbers).toEqual([]);
    const s = doc.components.schemas;
    expect([
      s.FailureOutcomeView.properties.retryAfterSeconds.type,
      s.CooldownView.properties.hits.type,
      s.CooldownView.properties.windowMs.type,
      s.ToolHealthView.properties.version.type,
    ]).toEqual([['integer', 'null'], 'integer', 'integer', 'integer']);
  });

  it('marks required parameters, lists servers, types the Agrajag arguments per tool and the events as a discriminated union', () => {
    // relative (P140): Try-it-out and generated clients call whatever host and port they were given
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    for (const dto of ['MarkUnavailableDto', 'SetCooldownDto', 'RecordDiagnosisDto', 'ClearCooldownDto', 'ChangeCooldownWindowDto']) {
      expect({ dto, required: doc.components.schemas[dto].required }).toEqual({
        dto,
        required: expect.arrayContaining(['scope', 'scopeId', 'toolName']),
      });
    }
    for (const { op } of operations)
      for (const p of op.parameters ?? [])
        if (p.in === 'path')
          expect({ op: op.operationId, p: p.name, required: p.required }).toEqual({ op: op.operationId, p: p.name, required: true });
    const args = doc.components.schemas.InvokeAgrajagToolDto.properties.arguments;
    expect(args.anyOf.map((r: Schema) => r.$ref).sort()).toEqual(
      Object.values(AGRAJAG_ARGUMENTS_COMPONENT)
        .map((n) => `#/components/schemas/${n}`)
        .sort(),
    );
    for (const name of Object.values(AGRAJAG_ARGUMENTS_COMPONENT)) expect(doc.components.schemas[name].properties.toolName).toBeDefined();
    const events = doc.components.schemas.EventPageView.properties.events.items;
    expect(events.discriminator.propertyName).toBe('type');
    expect(Object.keys(events.discriminator.mapping).sort()).toEqual(Object.values(HealthEventType).sort());
    for (const [type, ref] of Object.entries(events.discriminator.mapping as Record<string, string>)) {
      const view = resolve({ $ref: ref });
      const own = view.allOf ? view.allOf.map(resolve).find((s: Schema) => s.properties?.type) : view;
      expect({ type, allowed: own.properties.type.enum }).toEqual({ type, allowed: expect.arrayContaining([type]) });
      expect(own.properties.payload.$ref).toMatch(/PayloadView$/);
    }
  });

  /** The document's own example of a schema: its first example, else default, else the first enum value, else built from the parts. */
  function exampleOf(schema: Schema): unknown {
    const s = resolve(schema);
    if (s.examples !== undefined) return s.examples[0];
    if (s.default !== undefined) return s.default;
    if (s.enum) return s.enum[0];
    // a nullable reference (`anyOf: [{$ref}, {type: 'null'}]`): the referenced schema's example
    if (s.anyOf?.length === 2 && s.anyOf[1].type === 'null') return exampleOf(s.anyOf[0]);
    if (s.allOf) {
      const parts = s.allOf.map(exampleOf);
      return parts.every((p: unknown) => p && typeof p === 'object' && !Array.isArray(p)) ? Object.assign({}, ...parts) : parts[0];
    }
    if (s.type === 'array') return [exampleOf(s.items)];
    if (s.type === 'object' || s.properties) {
      const out: Record<string, unknown> = {};
      for (const [name, prop] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
        if ((s.required ?? []).includes(name) || resolve(prop).examples !== undefined || prop.examples !== undefined)
          out[name] = prop.examples?.[0] ?? exampleOf(prop);
      }
      return out;
    }
    if (s.type === 'boolean') return false;
    if (s.type === 'integer') return s.minimum ?? 1;
    if (s.format === 'date-time') return '2026-05-23T15:00:00.000Z';
    return 'example';
  }

  it('has examples that the service accepts when executed (the example failure is a tool fault)', async () => {
    await t.reset();
    const refused: string[] = [];
    for (const { method, path, op } of operations) {
      if (op.operationId === 'checkReadiness' || op.operationId === 'checkLiveness') continue;
      let url = path;
      const query: Record<string, unknown> = {};
      for (const p of op.parameters ?? []) {
        const value = exampleOf(p.schema);
        if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(value)));
        else if (p.in === 'query' && (p.required || p.schema?.examples !== undefined)) query[p.name] = value;
      }
      const schema = op.requestBody?.content?.['application/json']?.schema;
      const body = schema ? exampleOf(schema) : undefined;
      const req = (t.http as any)[method](url).query(query).set('x-api-key', KEYS.admin);
      const res = await (body === undefined ? req : req.send(body));
      if (res.status === 400 || res.status >= 500)
        refused.push(`${op.operationId} ${JSON.stringify(body ?? query)} → ${res.status} ${JSON.stringify(res.body)}`);
      if (op.operationId === 'reportFailure') expect(res.body.reason).not.toBe('NOT_A_TOOL_FAULT');
    }
    expect(refused).toEqual([]);
  });

  it('shows readable context ids in the examples, its own sample ids, never the README round trip ids (P83)', () => {
    const context = exampleOf(doc.components.schemas.CallContextDto);
    expect(context).toEqual({
      sessionId: 'example-session',
      userId: 'example-user',
      projectId: 'example-project',
      tenantId: 'example-tenant',
    });
    // Swagger's example failure must not put the README's context into a cooldown (P83).
    const readmeIds = /"(jira_search|alice|s-7|p-1|acme)"/;
    const examples: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if ((k === 'example' || k === 'examples') && readmeIds.test(JSON.stringify(v))) examples.push(`${where}: ${JSON.stringify(v)}`);
        walk(v, `${where}/${k}`);
      }
    };
    walk(doc, '#');
    expect(examples).toEqual([]);
    expect(exampleOf(doc.components.schemas.FailureReportDto)).toMatchObject({ toolName: 'example-tool' });
  });

  it('states per operation which role a key needs, in words, in x-roles and in the security scheme (P140)', () => {
    const scheme = doc.components.securitySchemes['api-key'];
    for (const role of ['dispatcher', 'tool-health-writer', 'audit-reader', 'admin']) expect(scheme.description).toContain(`\`${role}\``);
    const problems: string[] = [];
    for (const { op } of operations) {
      const roles = op['x-roles'] as string[] | undefined;
      if (!Array.isArray(roles)) problems.push(`${op.operationId}: no x-roles`);
      else if (roles.length === 0) {
        if (JSON.stringify(op.security) !== '[]') problems.push(`${op.operationId}: open, but security is ${JSON.stringify(op.security)}`);
        if (!op.description.includes('Needs no API key.')) problems.push(`${op.operationId}: does not say it is open`);
      } else {
        if (roles[roles.length - 1] !== 'admin') problems.push(`${op.operationId}: admin not listed`);
        if (JSON.stringify(op.security) !== '[{"api-key":[]}]') problems.push(`${op.operationId}: security ${JSON.stringify(op.security)}`);
        for (const role of roles)
          if (!op.description.includes(`\`${role}\``)) problems.push(`${op.operationId}: description omits ${role}`);
      }
    }
    expect(problems).toEqual([]);
    const byId = Object.fromEntries(operations.map(({ op }) => [op.operationId, op['x-roles']]));
    expect([byId.checkLiveness, byId.reportFailure, byId.lookupAvailability, byId.readEvents, byId.sweepCooldowns]).toEqual([
      [],
      ['dispatcher', 'admin'],
      ['dispatcher', 'tool-health-writer', 'audit-reader', 'admin'],
      ['audit-reader', 'admin'],
      ['admin'],
    ]);
  });

  it('declares every tag at the top level and describes every success answer (P143)', () => {
    const declared = new Map((doc.tags as { name: string; description?: string }[]).map((tag) => [tag.name, tag.description]));
    const problems: string[] = [];
    for (const { op } of operations) {
      for (const tag of op.tags ?? [])
        if (!declared.get(tag)?.trim()) problems.push(`${op.operationId}: tag ${tag} not declared with a description`);
      for (const [status, response] of Object.entries(op.responses as Record<string, Schema>))
        if (/^2/.test(status) && !response.description?.trim()) problems.push(`${op.operationId} ${status}: no description`);
    }
    expect(problems).toEqual([]);
  });

  it('says in each request shape what the validator enforces: no unknown properties, non-empty arrays, no `default` keyword (P142)', () => {
    const s = doc.components.schemas;
    for (const name of [
      'FailureReportDto',
      'SuccessReportDto',
      'CallContextDto',
      'AnnotateManifestDto',
      'ToolManifestDto',
      'MarkUnavailableDto',
    ])
      expect({ name, additionalProperties: s[name].additionalProperties }).toEqual({ name, additionalProperties: false });
    expect([s.BatchLookupDto.properties.toolNames.minItems, s.ClientDisconnectDto.properties.tools.minItems]).toEqual([1, 1]);
    const defaults = Object.entries(s as Record<string, Schema>).flatMap(([name, schema]) =>
      Object.entries((schema.properties ?? {}) as Record<string, Schema>)
        .filter(([, p]) => p.default !== undefined)
        .map(([p]) => `${name}.${p}`),
    );
    expect(defaults).toEqual([]);
    expect(s.AnnotateManifestDto.properties.timeZone.description).toContain('Default: `"UTC"`');
    expect(s.AnnotateManifestDto.required ?? []).not.toContain('timeZone');
  });

  it('has the served document committed as openapi.json (`npm run openapi:generate` makes it without a database)', () => {
    const committed = JSON.parse(readFileSync(path.join(__dirname, '..', 'openapi.json'), 'utf8'));
    expect(committed).toEqual(doc);
  });

  it('has committed TypeScript client types equal to what openapi-typescript makes of the served document', () => {
    // The generator `npm run openapi:types` runs (scripts/generate-openapi-types.mjs), here on the
    // served document; its CLI runs in its own process: openapi-typescript is an ES module package.
    const file = path.join(__dirname, 'support', 'openapi-types.ts');
    const dir = mkdtempSync(path.join(tmpdir(), 'openapi-types-'));
    writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc));
    const generator = path.join(__dirname, '..', 'scripts', 'generate-openapi-types.mjs');
    execFileSync(process.execPath, [generator, path.join(dir, 'openapi.json'), path.join(dir, 'openapi-types.ts')], { stdio: 'pipe' });
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(path.join(dir, 'openapi-types.ts'), 'utf8'));
  });
});
