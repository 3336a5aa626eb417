import { randomBytes } from 'node:crypto';
import { applyDecorators } from '@nestjs/common';
import { IsString, MaxLength } from 'class-validator';
import { KEYS } from './support/api-keys';
import type { TestApp } from './support/test-app';

/**
 * docs/adding-a-field.md for a setting of a webhook endpoint (issue 34): a setting whose name is
 * made up at each run, declared the guide's way — its four places, each made here at run time
 * before the app is built, as the lines the guide asks for would be — and followed to every face:
 * create and change over REST and GraphQL, the stored endpoint, the OpenAPI document, the GraphQL
 * types, a bad value, and an endpoint stored before the setting existed. If the guide's way needed
 * one more declaration somewhere, a case here would not see the setting there.
 *
 * Everything of the app is loaded after the declarations (dynamic imports in beforeAll); the
 * domain module is replaced first, so the neutral value is in `endpointBlanks()` as the guide's
 * line there would put it.
 */
const mockField = `guideSetting${randomBytes(4).toString('hex')}`;
const FIELD = mockField;
const DESCRIPTION = `A setting added by the test of the guide (${FIELD}).`;

// The guide's place 1, in the domain: the setting's neutral value in endpointBlanks() (what a
// create that leaves it out gets, and what an endpoint stored before it reads as).
jest.mock('../src/domain/webhooks', () => {
  const actual = jest.requireActual('../src/domain/webhooks');
  return { ...actual, endpointBlanks: () => ({ ...actual.endpointBlanks(), [mockField]: null }) };
});

describe('Adding a setting to webhook endpoints (docs/adding-a-field.md): a generated setting on every face', () => {
  let t: TestApp;
  const admin = { 'x-api-key': KEYS.admin };

  beforeAll(async () => {
    const { ShapeField } = await import('../src/shapes/shape-field');
    const { NULLABLE_STRING, ViewField } = await import('../src/shapes/view-field');
    const dto = await import('../src/features/webhooks/webhook.dto');
    const { WebhookEndpointView } = await import('../src/features/webhooks/webhook.view');
    const { WebhookEndpointSchema } = await import('../src/persistence/webhook-endpoints/webhook-endpoint.schema');
    // Place 2, the row of ENDPOINT_SETTING_FIELDS: its decorator on the create and the change
    // request (both are built from the table) and its name among the settings the service copies.
    const row = (change: boolean) =>
      applyDecorators(
        ShapeField(`${DESCRIPTION}${change ? ' Unchanged when absent.' : ''}`, {
          type: () => String,
          optional: true,
          openapi: { type: String, maxLength: 200 },
        }),
        IsString(),
        MaxLength(200),
      );
    row(false)(dto.CreateWebhookEndpointDto.prototype, FIELD);
    row(true)(dto.ChangeWebhookEndpointDto.prototype, FIELD);
    (dto.ENDPOINT_SETTINGS as string[]).push(FIELD);
    // Place 3, the answer: one @ViewField on WebhookEndpointView.
    ViewField(DESCRIPTION, NULLABLE_STRING)(WebhookEndpointView.prototype, FIELD);
    // Place 4, the stored shape: its @Prop on WebhookEndpointRecord.
    WebhookEndpointSchema.add({ [FIELD]: { type: String, default: null } });

    const { createTestApp } = await import('./support/test-app');
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  });
  afterAll(() => t?.close());
  beforeEach(() => t.reset());

  const create = (body: Record<string, unknown>) =>
    t.http
      .post('/v1/webhook-endpoints')
      .set(admin)
      .send({ url: 'http://127.0.0.1:9/hook', ...body });
  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await t.http.post('/graphql').set(admin).send({ query, variables }).expect(200);
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };

  it('is set on create (REST), stored as sent, and read over REST and GraphQL', async () => {
    const { body } = await create({ description: 'on-call', [FIELD]: 'first' }).expect(201);
    expect(body.endpoint[FIELD]).toBe('first');
    const stored = await t.connection.db!.collection('webhook_endpoints').findOne({ _id: body.endpoint.id as never });
    expect(stored?.[FIELD]).toBe('first');
    expect((await t.http.get(`/v1/webhook-endpoints/${body.endpoint.id}`).set(admin).expect(200)).body[FIELD]).toBe('first');
    const data = await gql(`query($id: ID!) { webhookEndpoint(id: $id) { ${FIELD} } }`, { id: body.endpoint.id });
    expect(data.webhookEndpoint[FIELD]).toBe('first');
  });

  it('is changed over GraphQL and REST, and stays when a change leaves it out', async () => {
    const { body } = await create({}).expect(201);
    expect(body.endpoint[FIELD]).toBeNull(); // left out on create: its neutral value
    const data = await gql(`mutation($i: ChangeWebhookEndpointInput!) { changeWebhookEndpoint(input: $i) { ${FIELD} } }`, {
      i: { id: body.endpoint.id, [FIELD]: 'by graphql' },
    });
    expect(data.changeWebhookEndpoint[FIELD]).toBe('by graphql');
    const patched = await t.http.patch(`/v1/webhook-endpoints/${body.endpoint.id}`).set(admin).send({ description: 'renamed' }).expect(200);
    expect(patched.body).toMatchObject({ description: 'renamed', [FIELD]: 'by graphql' });
    const again = await t.http
      .patch(`/v1/webhook-endpoints/${body.endpoint.id}`)
      .set(admin)
      .send({ [FIELD]: 'by rest' })
      .expect(200);
    expect(again.body[FIELD]).toBe('by rest');
  });

  it('a bad value is a 400 naming it, and nothing is written', async () => {
    const res = await create({ [FIELD]: 42 }).expect(400);
    expect(res.body.message).toContain(FIELD);
    expect(await t.connection.db!.collection('webhook_endpoints').countDocuments()).toBe(0);
  });

  it('an endpoint stored before the setting existed reads its neutral value', async () => {
    const { body } = await create({ [FIELD]: 'soon gone' }).expect(201);
    await t.connection.db!.collection('webhook_endpoints').updateOne({ _id: body.endpoint.id as never }, { $unset: { [FIELD]: '' } });
    const read = await t.http.get(`/v1/webhook-endpoints/${body.endpoint.id}`).set(admin).expect(200);
    expect(read.body).toHaveProperty(FIELD, null);
  });

  it('is in the OpenAPI document (both requests and the answer) and in the GraphQL types, with its description', async () => {
    const schemas = (await t.http.get('/docs/openapi.json').expect(200)).body.components.schemas;
    expect(schemas.WebhookEndpointView.properties[FIELD]).toMatchObject({ description: DESCRIPTION });
    expect(schemas.CreateWebhookEndpointDto.properties[FIELD]).toMatchObject({ description: DESCRIPTION, maxLength: 200 });
    expect(schemas.ChangeWebhookEndpointDto.properties[FIELD].description).toContain('Unchanged when absent');
    const types = await gql(
      `{ out: __type(name: "WebhookEndpoint") { fields { name } } create: __type(name: "CreateWebhookEndpointInput") { inputFields { name } }
         change: __type(name: "ChangeWebhookEndpointInput") { inputFields { name } } }`,
    );
    expect(types.out.fields).toContainEqual({ name: FIELD });
    expect(types.create.inputFields).toContainEqual({ name: FIELD });
    expect(types.change.inputFields).toContainEqual({ name: FIELD });
  });
});
