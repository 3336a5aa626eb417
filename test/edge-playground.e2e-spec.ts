import { createClient } from 'graphql-ws';
import { Kind, OperationDefinitionNode, parse, print } from 'graphql';
import WebSocket from 'ws';
import { OutboxRelay } from '../src/features/events/outbox-relay.service';
import { DEFAULT_QUERY } from '../src/graphql/playground/playground.page';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * Issue 12 / P65: the playground's default document runs as it stands: its query and mutation
 * over HTTP, its subscription over graphql-ws, which then delivers the mutation's event.
 */
describe('the playground default document runs (P65)', () => {
  let t: TestApp;
  let wsUrl: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { OUTBOX_POLL_MS: '20' } });
    await t.reset();
    await t.app.listen(0, '127.0.0.1');
    wsUrl = `ws://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}/graphql`;
  });
  afterAll(() => t.close());

  const operations = parse(DEFAULT_QUERY).definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const source = (operation: string) => print(operations.find((o) => o.operation === operation)!);
  const http = (query: string) => t.http.post('/graphql').set('x-api-key', KEYS.admin).send({ query }).expect(200);

  it('its query, mutation and subscription each run with an admin key without errors', async () => {
    const query = await http(source('query'));
    expect(query.body.errors).toBeUndefined();

    const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { 'x-api-key': KEYS.admin }, retryAttempts: 0 });
    const events: unknown[] = [];
    const errors: unknown[] = [];
    const stop = client.subscribe(
      { query: source('subscription') },
      { next: (r) => (r.errors ? errors.push(...r.errors) : events.push(r.data)), error: (e) => errors.push(e), complete: () => undefined },
    );
    try {
      const relay = t.app.get(OutboxRelay);
      for (let i = 0; relay.subscriberCount < 1 && i < 250; i++) await new Promise((r) => setTimeout(r, 20));
      const mutation = await http(source('mutation'));
      expect(mutation.body.errors).toBeUndefined();
      expect(mutation.body.data.markToolIntermittent.status).toBe('DEGRADED');
      for (let i = 0; events.length === 0 && errors.length === 0 && i < 250; i++) await new Promise((r) => setTimeout(r, 20));
      expect(errors).toEqual([]);
      expect(events[0]).toMatchObject({
        toolHealthChanged: { toolName: 'example', status: 'DEGRADED', payload: { __typename: 'StatusChangedPayload' } },
      });
    } finally {
      stop();
      await client.dispose();
    }
  });
});
