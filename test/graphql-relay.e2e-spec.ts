import { EventRelay } from '../src/write-path/event-relay.service';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * Relay-complete connections (P145, P146): backward paging with last/before on
 * both connections, node(id:) over the Node types, and cursors the server never handed out
 * refused by name (GraphQL BAD_USER_INPUT, REST 400) instead of restarting or being echoed.
 */
describe('GraphQL Relay connections and cursors', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    t.clock.set('2026-05-23T14:00:00.000Z');
  });

  function post(query: string, variables: Record<string, unknown> = {}, key: string = KEYS.audit) {
    return t.http.post('/graphql').set('x-api-key', key).send({ query, variables });
  }
  async function gql<T = any>(query: string, variables: Record<string, unknown> = {}, key: string = KEYS.audit): Promise<T> {
    const res = await post(query, variables, key).expect(200);
    if (res.body.errors) throw new Error(`GraphQL errors: ${JSON.stringify(res.body.errors)}`);
    return res.body.data as T;
  }
  // A write waits a bounded time for its events to reach the log; a loaded machine can outlast
  // it, so the tests that read the log after a write drain the relay first.
  const down = async (toolName: string) => {
    const data = await gql(
      'mutation($i: MarkUnavailableInput!) { markToolUnavailable(input: $i) { id } }',
      { i: { scope: 'PROJECT', scopeId: 'p-1', toolName, code: 'BACKEND_FAILED', source: 'test' } },
      KEYS.admin,
    );
    await t.app.get(EventRelay).drain();
    return data;
  };
  const tools = (n: number) => Array.from({ length: n }, (_, i) => `t${String(i).padStart(2, '0')}`);

  type PageInfo = { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  type Page = { edges: { cursor: string; node: { id: string } }[]; pageInfo: PageInfo };

  const LIST = `query($first: Int, $after: String, $last: Int, $before: String) {
    toolHealths(first: $first, after: $after, last: $last, before: $before) {
      edges { cursor node { id } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }`;
  const EVENTS = `query($first: Int, $after: String, $last: Int, $before: String) {
    healthEvents(first: $first, after: $after, last: $last, before: $before) {
      edges { cursor node { id } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }`;
  const listPage = async (args: Record<string, unknown>): Promise<Page> => (await gql(LIST, args)).toolHealths;
  const eventPage = async (args: Record<string, unknown>): Promise<Page> => (await gql(EVENTS, args)).healthEvents;
  const ids = (page: Page) => page.edges.map((e) => e.node.id);

  /**
   * What Apollo Client's relayStylePagination does with pages: a page asked for `after` a cursor
   * is appended behind it, one asked for `before` is put in front of it; the merged list and the
   * outer cursors are what the next `fetchMore` starts from.
   */
  class RelayCache {
    edges: Page['edges'] = [];
    startCursor: string | null = null;
    endCursor: string | null = null;
    hasPreviousPage = false;
    hasNextPage = false;
    merge(page: Page, args: { after?: string; before?: string }): void {
      if (args.after !== undefined) {
        const at = this.edges.findIndex((e) => e.cursor === args.after);
        this.edges = [...this.edges.slice(0, at + 1), ...page.edges];
        this.hasNextPage = page.pageInfo.hasNextPage;
        this.endCursor = page.pageInfo.endCursor;
      } else if (args.before !== undefined) {
        const at = this.edges.findIndex((e) => e.cursor === args.before);
        this.edges = [...page.edges, ...this.edges.slice(at)];
        this.hasPreviousPage = page.pageInfo.hasPreviousPage;
        this.startCursor = page.pageInfo.startCursor;
      } else {
        this.edges = page.edges;
        ({ hasPreviousPage: this.hasPreviousPage, hasNextPage: this.hasNextPage } = page.pageInfo);
        ({ startCursor: this.startCursor, endCursor: this.endCursor } = page.pageInfo);
      }
    }
  }

  describe('toolHealths: last/before', () => {
    it('pages backward from the end and from a cursor, with PageInfo as Relay defines it', async () => {
      for (const name of tools(7)) await down(name);
      const all = ids(await listPage({ first: 50 }));
      expect(all).toHaveLength(7);

      const tail = await listPage({ last: 3 });
      expect(ids(tail)).toEqual(all.slice(4));
      expect(tail.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });

      const before = await listPage({ last: 3, before: tail.pageInfo.startCursor });
      expect(ids(before)).toEqual(all.slice(1, 4));
      expect(before.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });

      const head = await listPage({ last: 3, before: before.pageInfo.startCursor });
      expect(ids(head)).toEqual(all.slice(0, 1));
      expect(head.pageInfo.hasPreviousPage).toBe(false);

      // Between two cursors, in either direction.
      const between = await listPage({ first: 10, after: head.pageInfo.endCursor, before: tail.pageInfo.startCursor });
      expect(ids(between)).toEqual(all.slice(1, 4));
    });

    it('a relayStylePagination walk back from the end and forward again sees every entry once, in order', async () => {
      for (const name of tools(11)) await down(name);
      const all = ids(await listPage({ first: 50 }));

      const cache = new RelayCache();
      cache.merge(await listPage({ last: 4 }), {});
      while (cache.hasPreviousPage) {
        const before = cache.startCursor!;
        cache.merge(await listPage({ last: 4, before }), { before });
      }
      expect(cache.edges.map((e) => e.node.id)).toEqual(all);

      const forward = new RelayCache();
      forward.merge(await listPage({ first: 4 }), {});
      while (forward.hasNextPage) {
        const after = forward.endCursor!;
        forward.merge(await listPage({ first: 4, after }), { after });
      }
      expect(forward.edges).toEqual(cache.edges);
    });

    it('an empty page gives back the cursor it was asked from, so a walk resumes there', async () => {
      for (const name of tools(2)) await down(name);
      const first = await listPage({ first: 1 });
      const empty = await listPage({ last: 5, before: first.pageInfo.startCursor });
      expect(empty.edges).toEqual([]);
      expect(empty.pageInfo).toEqual({
        hasNextPage: true,
        hasPreviousPage: false,
        startCursor: first.pageInfo.startCursor,
        endCursor: null,
      });
    });

    it('first and last together are refused, naming last', async () => {
      const res = await post(LIST, { first: 1, last: 1 }).expect(200);
      expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', field: 'last' } });
    });
  });

  describe('healthEvents: last/before', () => {
    it('reads the newest events first with last, and walks back to the oldest', async () => {
      for (const name of tools(5)) await down(name);
      const all = ids(await eventPage({ first: 100 }));
      expect(all).toHaveLength(5);

      const cache = new RelayCache();
      cache.merge(await eventPage({ last: 2 }), {});
      expect(cache.edges.map((e) => e.node.id)).toEqual(all.slice(3));
      while (cache.hasPreviousPage) {
        const before = cache.startCursor!;
        cache.merge(await eventPage({ last: 2, before }), { before });
      }
      expect(cache.edges.map((e) => e.node.id)).toEqual(all);
    });
  });

  describe('node(id:)', () => {
    const NODE = `query($id: ID!) {
      node(id: $id) {
        __typename id
        ... on ToolHealth { scope scopeId toolName status }
        ... on HealthEvent { type docId position }
      }
    }`;

    it('fetches a health entry and an event again by the id a page gave', async () => {
      await down('jira');
      const [entry] = (await listPage({ first: 1 })).edges;
      expect(await gql(NODE, { id: entry.node.id })).toEqual({
        node: { __typename: 'ToolHealth', id: entry.node.id, scope: 'PROJECT', scopeId: 'p-1', toolName: 'jira', status: 'DOWN' },
      });

      const [event] = (await eventPage({ first: 1 })).edges;
      expect(await gql(NODE, { id: event.node.id })).toEqual({
        node: { __typename: 'HealthEvent', id: event.node.id, type: 'STATUS_CHANGED', docId: entry.node.id, position: event.cursor },
      });
    });

    it('is null for an id of nothing, and the Node interface is in the schema', async () => {
      expect(await gql(NODE, { id: 'GLOBAL|%00|never-written' })).toEqual({ node: null });
      const data = await gql(`{ __type(name: "Node") { kind fields { name type { kind ofType { name } } } possibleTypes { name } } }`);
      expect(data.__type).toEqual({
        kind: 'INTERFACE',
        fields: [{ name: 'id', type: { kind: 'NON_NULL', ofType: { name: 'ID' } } }],
        possibleTypes: expect.arrayContaining([{ name: 'ToolHealth' }, { name: 'HealthEvent' }]),
      });
    });
  });

  describe('cursors the server never handed out', () => {
    it.each([
      ['toolHealths', 'after'],
      ['toolHealths', 'before'],
      ['healthEvents', 'after'],
      ['healthEvents', 'before'],
    ])('%s(%s: garbage) is BAD_USER_INPUT naming the argument', async (connection, arg) => {
      await down('jira');
      const query = connection === 'toolHealths' ? LIST : EVENTS;
      const size = arg === 'after' ? { first: 5 } : { last: 5 };
      const res = await post(query, { ...size, [arg]: 'garbage' }).expect(200);
      expect(res.body.data).toBeNull();
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', field: arg } });
      expect(res.body.errors[0].message).toContain(arg);
    });

    it('REST /v1/events?after=garbage is a 400 naming after, not an empty page that echoes it', async () => {
      await down('jira');
      const res = await t.http.get('/v1/events?after=garbage').set('x-api-key', KEYS.audit).expect(400);
      expect(JSON.stringify(res.body)).toContain('after');
      expect(JSON.stringify(res.body)).not.toContain('"endCursor"');
    });

    it('REST /v1/events still pages on from a cursor it handed out, and from an empty page', async () => {
      await down('jira');
      const first = await t.http.get('/v1/events?limit=1').set('x-api-key', KEYS.audit).expect(200);
      expect(first.body.events).toHaveLength(1);
      const next = await t.http
        .get(`/v1/events?after=${encodeURIComponent(first.body.endCursor)}`)
        .set('x-api-key', KEYS.audit)
        .expect(200);
      expect(next.body).toEqual({ events: [], endCursor: first.body.endCursor });
    });
  });
});
