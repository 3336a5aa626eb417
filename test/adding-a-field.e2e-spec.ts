import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Scope } from '../src/domain/scope';
import { ToolHealthSchema } from '../src/persistence/tool-health/tool-health.schema';
import { ToolHealthView } from '../src/shapes/tool-health.view';
import { NULLABLE_STRING, ViewField } from '../src/shapes/view-field';
import { KEYS } from './support/api-keys';
import type { TestApp } from './support/test-app';

/**
 * The test of docs/adding-a-field.md (issue 26): it adds a field the guide's way — a name made up
 * at each run, so nothing in the code can know it — and follows it from the write path into the
 * stored document, REST, GraphQL, MCP and the OpenAPI document. The declarations the guide asks
 * for in source are made here at run time, before the app is built: the answer (`@ViewField`,
 * the one that reaches every contract) and the stored shape (what `@Prop` adds to the schema;
 * that one is held at build time by `STORED_SHAPE_MATCHES_DOCUMENT`, as the repository writes
 * through the driver). Nothing else is touched: if a contract needed another declaration, this
 * test would not see the field there (without the ViewField line, three of its cases fail).
 */
const FIELD = `guideField${randomBytes(4).toString('hex')}`;
const DESCRIPTION = `A field added by the test of the guide (${FIELD}).`;
const VALUE = `value-${randomBytes(4).toString('hex')}`;
const GUIDE = readFileSync(path.join(__dirname, '..', 'docs', 'adding-a-field.md'), 'utf8');

// The guide's step "stored shape" (what `@Prop({ type: String, default: null })` adds) and step
// "answer" (`@ViewField(description, NULLABLE_STRING)`), before any schema is built from them.
ToolHealthSchema.add({ [FIELD]: { type: String, default: null } });
ViewField(DESCRIPTION, NULLABLE_STRING)(ToolHealthView.prototype, FIELD);

describe('Adding a field (docs/adding-a-field.md): a generated field round-trips the stored document, REST, GraphQL and MCP', () => {
  let t: TestApp;
  let url: URL;
  const key = { scope: Scope.GLOBAL, scopeId: null, toolName: 'guide_tool' };

  beforeAll(async () => {
    // Loaded only now: the app's schemas (GraphQL, OpenAPI, MCP output) are built from the view as decorated above.
    const { createTestApp } = await import('./support/test-app');
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    url = new URL('/mcp', await t.app.getUrl());
    const { HealthStore } = await import('../src/write-path/health-store.service');
    const { newDocument } = await import('../src/domain/health-entry');
    // The guide's step "who writes it": a reducer through the single write path sets the field.
    await t.app.get(HealthStore).write(key, null, (env) => (current) => ({ ...(current ?? newDocument(key, env.now)), [FIELD]: VALUE }));
  });
  afterAll(() => t?.close());

  it('names each place the guide sends a field to, and each exists', () => {
    const places = [...GUIDE.matchAll(/`((?:src|test|scripts)\/[^`\s]+\.ts)`/g)].map((m) => m[1]);
    expect(places).toEqual(
      expect.arrayContaining([
        'src/domain/tool-health-document.ts',
        'src/persistence/tool-health/tool-health.schema.ts',
        'src/shapes/tool-health.view.ts',
      ]),
    );
    for (const place of places) expect(() => readFileSync(path.join(__dirname, '..', place))).not.toThrow();
  });

  it('is in the stored document, as written', async () => {
    const stored = await t.connection.db!.collection('tool_health').findOne({ toolName: key.toolName });
    expect(stored?.[FIELD]).toBe(VALUE);
  });

  it('is in the REST answer and in the OpenAPI document, with its description', async () => {
    const got = await t.http.get(`/v1/entries?scope=GLOBAL&toolName=${key.toolName}`).set('x-api-key', KEYS.audit).expect(200);
    expect(got.body[FIELD]).toBe(VALUE);
    const doc = (await t.http.get('/docs/openapi.json').expect(200)).body;
    expect(doc.components.schemas.ToolHealthView.properties[FIELD]).toMatchObject({
      type: ['string', 'null'],
      description: DESCRIPTION,
    });
  });

  it('is a GraphQL field of ToolHealth, with its description', async () => {
    const query = `{ toolHealth(scope: GLOBAL, toolName: "${key.toolName}") { ${FIELD} } __type(name: "ToolHealth") { fields { name description } } }`;
    const res = await t.http.post('/graphql').set('x-api-key', KEYS.audit).send({ query }).expect(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.toolHealth[FIELD]).toBe(VALUE);
    expect(res.body.data.__type.fields).toContainEqual({ name: FIELD, description: DESCRIPTION });
  });

  it("is in MCP's tool_health_get result and its output schema (the SDK client validates one against the other)", async () => {
    const client = new Client({ name: 'guide', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { 'x-api-key': KEYS.audit } } }));
    try {
      const { tools } = await client.listTools();
      const get = tools.find((tool) => tool.name === 'tool_health_get');
      const entrySchema = (get?.outputSchema?.properties as Record<string, { anyOf: { properties?: Record<string, unknown> }[] }>).entry;
      expect(entrySchema.anyOf[0].properties?.[FIELD]).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
      const result = (await client.callTool({
        name: 'tool_health_get',
        arguments: { scope: 'GLOBAL', toolName: key.toolName },
      })) as CallToolResult;
      expect((result.structuredContent as { entry: Record<string, unknown> }).entry[FIELD]).toBe(VALUE);
    } finally {
      await client.close();
    }
  });

  it('survives a later write of the entry by another writer (every reducer keeps what it does not change)', async () => {
    const written = await t.http
      .post('/v1/health/mark-unavailable')
      .set('x-api-key', KEYS.dispatcher)
      .send({ scope: 'GLOBAL', toolName: key.toolName, code: 'BACKEND_FAILED', source: 'guide' })
      .expect(200);
    expect(written.body).toMatchObject({ status: 'DOWN', [FIELD]: VALUE });
    const stored = await t.connection.db!.collection('tool_health').findOne({ toolName: key.toolName });
    expect(stored).toMatchObject({ status: 'DOWN', [FIELD]: VALUE });
  });
});
