import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HealthEvent, HealthEventType } from '../src/domain/health-events';
import { Scope } from '../src/domain/scope';
import { ToolStatus } from '../src/domain/tool-status';
import { TOOL_HEALTH_EVENTS } from '../src/features/events/tool-health-events';
import { ViewField, ViewType } from '../src/shapes/view-field';
import { KEYS } from './support/api-keys';
import type { TestApp } from './support/test-app';

/**
 * The test of docs/adding-an-event.md: it adds an event type the guide's way — a name made up at
 * each run, so nothing in the code can know it — and follows it to every face: the REST feed and
 * the OpenAPI discriminated union, the GraphQL enum (with its description), payload union and type
 * resolution, the webhook filter and the Slack line. The declarations the guide asks for in source
 * are made here at run time, before the app is built: the enum value, a payload class and the
 * feature's row. Nothing else is touched: a face that needed another declaration would miss it here.
 */
const TYPE = `GUIDE_EVENT_${randomBytes(4).toString('hex').toUpperCase()}`;
const GUIDE_NAME = `Guide${randomBytes(4).toString('hex')}`;
const PAYLOAD = `${GUIDE_NAME}Payload`;
const DESCRIPTION = `An event added by the test of the guide (${TYPE}).`;
const VALUE = `value-${randomBytes(4).toString('hex')}`;
const GUIDE = readFileSync(path.join(__dirname, '..', 'docs', 'adding-an-event.md'), 'utf8');

// The guide's step "the domain": the enum value (its payload type is compile-time only).
(HealthEventType as unknown as Record<string, string>)[TYPE] = TYPE;

// The guide's step "the row": a payload class (one @ViewField per field) and the feature's row.
class GuidePayloadView {
  note: string;
}
ViewField('What the guide event says.', { type: () => String, openapi: { type: String } })(GuidePayloadView.prototype, 'note');
ViewType(PAYLOAD, `The payload of a ${TYPE} event.`)(GuidePayloadView);
Object.defineProperty(GuidePayloadView, 'name', { value: `${PAYLOAD}View` });
(TOOL_HEALTH_EVENTS as Record<string, unknown>)[TYPE] = {
  description: DESCRIPTION,
  payload: GuidePayloadView,
  summary: (event: HealthEvent & { payload: { note: string } }, text: { head: string }) => `${text.head} — ${event.payload.note}`,
};

describe('Adding an event (docs/adding-an-event.md): a generated event type reaches every face', () => {
  let t: TestApp;
  const event = {
    id: `guide:${TYPE}`,
    docId: 'GLOBAL::guide_tool',
    scope: Scope.GLOBAL,
    scopeId: null,
    toolName: 'guide_tool',
    status: ToolStatus.OK,
    effectiveStatus: ToolStatus.OK,
    tenantId: null,
    at: new Date(),
    type: TYPE,
    payload: { note: VALUE },
  } as unknown as HealthEvent;

  beforeAll(async () => {
    // Loaded only now: the catalogue, the schemas and the views are derived from the row added above.
    const { createTestApp } = await import('./support/test-app');
    t = await createTestApp();
    const { EventRelay } = await import('../src/write-path/event-relay.service');
    // The guide's step "emit it": the code that emits hands the event to the relay.
    await t.app.get(EventRelay).publish([event]);
    // The publish waits a bounded time for the move to the log; a loaded machine can outlast it.
    await t.app.get(EventRelay).drain();
  });
  afterAll(() => t?.close());

  const inject = (method: 'GET' | 'POST', url: string, key: string, payload?: object) =>
    t.app
      .getHttpAdapter()
      .getInstance()
      .inject({ method, url, headers: { 'x-api-key': key }, ...(payload ? { payload } : {}) });

  it('names each place the guide sends an event to, and each exists', () => {
    const places = [...GUIDE.matchAll(/`((?:src|test|scripts)\/[^`\s]+\.ts)`/g)].map((m) => m[1]);
    expect(places).toEqual(expect.arrayContaining(['src/domain/health-events.ts', 'src/features/events/event-catalogue.ts']));
    for (const place of places) expect(() => readFileSync(path.join(__dirname, '..', place))).not.toThrow();
  });

  it('is in the REST feed with its payload, and in the OpenAPI discriminated union', async () => {
    // Past the harness's check against the committed openapi.json, which cannot know a type made up now.
    const page = await inject('GET', '/v1/events?limit=500', KEYS.audit);
    expect(page.statusCode).toBe(200);
    expect(page.json().events.find((e: { type: string }) => e.type === TYPE)).toMatchObject({ payload: { note: VALUE } });
    const doc = (await t.http.get('/docs/openapi.json').expect(200)).body;
    const view = `${GUIDE_NAME}EventView`;
    const union = doc.components.schemas.EventPageView.properties.events.items;
    expect(union.discriminator.mapping[TYPE]).toBe(`#/components/schemas/${view}`);
    expect(union.oneOf).toContainEqual({ $ref: `#/components/schemas/${view}` });
    expect(doc.components.schemas[view].properties.type.enum).toEqual([TYPE]);
  });

  it('is a GraphQL enum value with its description, and its payload a member of the union', async () => {
    const query = `{ __type(name: "HealthEventType") { enumValues { name description } }
      healthEvents(first: 500) { edges { node { type payload { __typename ... on ${PAYLOAD} { note } } } } } }`;
    const res = await t.http.post('/graphql').set('x-api-key', KEYS.admin).send({ query }).expect(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.__type.enumValues).toContainEqual({ name: TYPE, description: DESCRIPTION });
    const nodes = res.body.data.healthEvents.edges.map((e: { node: unknown }) => e.node);
    expect(nodes).toContainEqual({ type: TYPE, payload: { __typename: PAYLOAD, note: VALUE } });
  });

  it('is a type a webhook endpoint may filter on, and has its Slack line', async () => {
    const created = await inject('POST', '/v1/webhook-endpoints', KEYS.admin, {
      url: 'https://hooks.example.com/guide',
      eventTypes: [TYPE],
      format: 'SLACK',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().endpoint.eventTypes).toEqual([TYPE]);
    const { eventSummary } = await import('../src/features/events/event-catalogue');
    // The row's summary ends the line; the head before it is the one every line shares.
    const line = eventSummary(event, new Date(), 'UTC');
    expect(line).toMatch(/^guide_tool /);
    expect(line.endsWith(` — ${VALUE}`)).toBe(true);
  });
});
