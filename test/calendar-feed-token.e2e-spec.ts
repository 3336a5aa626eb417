import ICAL from 'ical.js';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * A calendar app subscribes to the maintenance feed by URL (P227): an admin creates a read-only
 * feed token (shown once), the feed takes it in its query string, an iCalendar parser reads the
 * answer, and a second read with the validators it was given is a 304. The token opens that feed
 * alone, and not after it is revoked.
 */
describe('subscribing to the maintenance calendar with a feed token', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    t.clock.set('2026-05-23T14:00:00.000Z');
    await t.http
      .post('/v1/maintenance-windows')
      .set('x-api-key', KEYS.admin)
      .send({
        scope: 'GLOBAL',
        toolName: 'jira_search',
        reason: 'Jira backup',
        from: '2026-05-23T16:00:00.000Z',
        until: '2026-05-23T18:00:00.000Z',
        rrule: 'FREQ=WEEKLY;BYDAY=SA',
        timeZone: 'Europe/Berlin',
      })
      .expect(201);
  });

  const createToken = async () =>
    (await t.http.post('/v1/calendar-feed-tokens').set('x-api-key', KEYS.admin).send({ label: 'on-call calendar' }).expect(201)).body as {
      feedToken: { id: string; label: string };
      token: string;
      feedPath: string;
    };

  it('reads the feed with the token alone, parsed by ical.js, then 304 with its ETag or Last-Modified', async () => {
    const { token, feedPath, feedToken } = await createToken();
    expect(feedPath).toBe(`/v1/maintenance-windows.ics?token=${encodeURIComponent(token)}`);
    expect(feedToken.label).toBe('on-call calendar');

    const first = await t.http.get(feedPath).expect(200);
    expect(first.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(first.headers['cache-control']).toBe('private, max-age=300');
    const events = new ICAL.Component(ICAL.parse(first.text)).getAllSubcomponents('vevent');
    expect(events.length).toBe(9); // weekly over 60 days
    expect(events[0].getFirstPropertyValue('summary')).toBe('jira_search under maintenance (GLOBAL)');

    const etag = first.headers['etag'];
    const lastModified = first.headers['last-modified'];
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(new Date(lastModified).getTime()).toBeLessThanOrEqual(t.clock.now().getTime());
    t.clock.set('2026-05-23T14:05:00.000Z'); // later, nothing changed
    const again = await t.http.get(feedPath).set('if-none-match', etag).expect(304);
    expect(again.text).toBe('');
    expect(again.headers['etag']).toBe(etag);
    await t.http.get(feedPath).set('if-modified-since', lastModified).expect(304);

    // A change to the series changes the feed: the old validators get the new calendar.
    await t.http
      .post(`/v1/maintenance-windows/${(await listIds())[0]}/skip`)
      .set('x-api-key', KEYS.admin)
      .send({ occurrence: '2026-05-30T16:00:00Z' })
      .expect(200);
    const changed = await t.http.get(feedPath).set('if-none-match', etag).expect(200);
    expect(changed.headers['etag']).not.toBe(etag);
    expect(new ICAL.Component(ICAL.parse(changed.text)).getAllSubcomponents('vevent').length).toBe(8);
    // An occurrence that ends changes it too (it leaves the feed): a copy from before is stale.
    t.clock.set('2026-05-23T18:30:00.000Z');
    await t.http.get(feedPath).set('if-modified-since', changed.headers['last-modified']).expect(200);
  });

  const listIds = async () =>
    ((await t.http.get('/v1/maintenance-windows').set('x-api-key', KEYS.audit).expect(200)).body as { id: string }[]).map((w) => w.id);

  it('opens the feed alone, is never shown again, and is refused once revoked', async () => {
    const { token, feedToken } = await createToken();
    // Not a key: no other route takes it, in the query or as a key.
    await t.http.get(`/v1/maintenance-windows?token=${encodeURIComponent(token)}`).expect(401);
    await t.http.get('/v1/maintenance-windows').set('x-api-key', token).expect(401);
    const listed = (await t.http.get('/v1/calendar-feed-tokens').set('x-api-key', KEYS.admin).expect(200)).body;
    expect(listed).toEqual([
      { id: feedToken.id, label: 'on-call calendar', createdAt: '2026-05-23T14:00:00.000Z', createdBy: 'admin:admin' },
    ]);
    expect(JSON.stringify(listed)).not.toContain(token);

    await t.http.delete(`/v1/calendar-feed-tokens/${feedToken.id}`).set('x-api-key', KEYS.admin).expect(200, { id: feedToken.id });
    const revoked = await t.http.get(`/v1/maintenance-windows.ics?token=${encodeURIComponent(token)}`).expect(401);
    expect(revoked.body.message).toBe('unknown or revoked calendar feed token');
    await t.http.delete(`/v1/calendar-feed-tokens/${feedToken.id}`).set('x-api-key', KEYS.admin).expect(404);
  });

  it('keys keep working as before; only admins manage tokens; bad input names the field', async () => {
    await t.http.get('/v1/maintenance-windows.ics').set('x-api-key', KEYS.audit).expect(200);
    await t.http.get('/v1/maintenance-windows.ics').set('x-api-key', 'no-such-key').expect(401);
    const none = await t.http.get('/v1/maintenance-windows.ics').expect(401);
    expect(none.body.message).toMatch(/x-api-key.*calendar feed token/);
    await t.http.get('/v1/maintenance-windows.ics?token=calfeed_made-up').expect(401);
    await t.http.post('/v1/calendar-feed-tokens').set('x-api-key', KEYS.audit).send({ label: 'x' }).expect(403);
    await t.http.get('/v1/calendar-feed-tokens').set('x-api-key', KEYS.audit).expect(403);
    const bad = await t.http.post('/v1/calendar-feed-tokens').set('x-api-key', KEYS.admin).send({ label: '' }).expect(400);
    expect(bad.body.field).toBe('label');
    // A token longer than any is refused as the document says, with a key too.
    const long = await t.http
      .get(`/v1/maintenance-windows.ics?token=calfeed_${'x'.repeat(200)}`)
      .set('x-api-key', KEYS.audit)
      .expect(400);
    expect(long.body.field).toBe('token');
    await t.http.get('/v1/maintenance-windows.ics?token=a&token=b').expect(400);
  });
  it('over GraphQL too: admins create (the token once), list and revoke; the token opens the feed until revoked', async () => {
    const gql = async (key: string, query: string, variables: Record<string, unknown> = {}) =>
      (await t.http.post('/graphql').set('x-api-key', key).send({ query, variables }).expect(200)).body as {
        data: Record<string, unknown> | null;
        errors?: { message: string; extensions: { code: string; field?: string } }[];
      };
    const created = await gql(
      KEYS.admin,
      'mutation ($input: CreateCalendarFeedTokenInput!) { createCalendarFeedToken(input: $input) { token feedPath feedToken { id label createdAt createdBy } } }',
      { input: { label: 'team calendar (GraphQL)' } },
    );
    expect(created.errors).toBeUndefined();
    const { token, feedPath, feedToken } = created.data!.createCalendarFeedToken as {
      token: string;
      feedPath: string;
      feedToken: { id: string; label: string; createdAt: string; createdBy: string };
    };
    expect(feedToken).toEqual({
      id: expect.any(String),
      label: 'team calendar (GraphQL)',
      createdAt: '2026-05-23T14:00:00.000Z',
      createdBy: 'admin:admin',
    });
    expect(feedPath).toBe(`/v1/maintenance-windows.ics?token=${encodeURIComponent(token)}`);
    await t.http.get(feedPath).expect(200);

    // The same tokens as REST lists, never the token itself.
    const listed = await gql(KEYS.admin, '{ calendarFeedTokens { id label createdAt createdBy } }');
    const rest = (await t.http.get('/v1/calendar-feed-tokens').set('x-api-key', KEYS.admin).expect(200)).body;
    expect(listed.data!.calendarFeedTokens).toEqual(rest);
    expect(JSON.stringify(listed)).not.toContain(token);

    // Admins only; a bad label names its field.
    const refused = await gql(KEYS.audit, '{ calendarFeedTokens { id } }');
    expect(refused.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const bad = await gql(KEYS.admin, 'mutation { createCalendarFeedToken(input: { label: "" }) { token } }');
    expect(bad.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'label' });

    const revoked = await gql(KEYS.admin, `mutation { revokeCalendarFeedToken(id: "${feedToken.id}") { id } }`);
    expect(revoked.data).toEqual({ revokeCalendarFeedToken: { id: feedToken.id } });
    await t.http.get(feedPath).expect(401);
    const again = await gql(KEYS.admin, `mutation { revokeCalendarFeedToken(id: "${feedToken.id}") { id } }`);
    expect(again.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
