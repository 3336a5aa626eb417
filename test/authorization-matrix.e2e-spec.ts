import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { GraphQLObjectType } from 'graphql';
import { PUBLIC_KEY, ROLES_KEY } from '../src/auth/roles.decorator';
import { Role } from '../src/domain/role';
import { KEYS, TestApp, createTestApp } from './support/test-app';

/**
 * Issue 6 item 1 (OWASP API1/API5): every REST route and every GraphQL operation, called with
 * no key, with each wrong role and with each right role. The routes and fields come from the
 * running application, so a new one without a rule here fails the coverage tests.
 */
type Rule = 'public' | Role[];
const D = Role.DISPATCHER;
const W = Role.TOOL_HEALTH_WRITER;
const A = Role.AUDIT_READER;
const ADMIN = Role.ADMIN;

const REST_RULES: Record<string, Rule> = {
  'GET /health/live': 'public',
  'GET /health/ready': 'public',
  'POST /v1/health/mark-unavailable': [D],
  'POST /v1/health/bulk/mark-unavailable': [D],
  'POST /v1/health/bulk/mark-intermittent': [D],
  'POST /v1/health/bulk/mark-available': [D],
  'POST /v1/health/mark-intermittent': [D],
  'POST /v1/health/mark-available': [D],
  'POST /v1/sessions/:sessionId/client-disconnected': [D],
  'POST /v1/sessions/:sessionId/client-reconnected': [D],
  'GET /v1/entries': [D, W, A],
  'GET /v1/tools/:toolName/availability': [D, W, A],
  'POST /v1/availability/lookup': [D, W, A],
  'GET /v1/tools/:toolName/stats': [D, W, A],
  'GET /v1/tools/:toolName/uptime': [D, W, A],
  'POST /v1/outcomes/success': [D],
  'POST /v1/outcomes/failure': [D],
  'POST /v1/outcomes/batch': [D],
  'POST /v1/cooldowns': [D],
  'POST /v1/cooldowns/clear': [ADMIN],
  'POST /v1/cooldowns/sweep': [ADMIN],
  'POST /v1/cooldowns/window': [ADMIN],
  'GET /v1/probes/due': [W, A],
  'POST /v1/diagnoses': [W],
  'GET /v1/agrajag/tools': [W],
  'POST /v1/agrajag/tools/:name/invoke': [W],
  'GET /v1/events': [A],
  'GET /v1/tenants/:tenantId/settings': [A],
  'PUT /v1/tenants/:tenantId/settings/history-limit': [ADMIN],
  'POST /v1/manifest/annotate': [D],
  'POST /v1/manifest/annotate/changes': [D],
  'POST /v1/manifest/explain': [D],
  'GET /metrics': [A],
  'POST /v1/maintenance-windows': [ADMIN],
  'GET /v1/maintenance-windows': [A],
  'PATCH /v1/maintenance-windows/:id': [ADMIN],
  'DELETE /v1/maintenance-windows/:id': [ADMIN],
  'POST /v1/maintenance-windows/:id/skip': [ADMIN],
  'POST /v1/maintenance-windows/:id/occurrence': [ADMIN],
  'POST /v1/maintenance-windows/:id/end': [ADMIN],
  'GET /v1/maintenance-windows.ics': [A],
  'POST /v1/calendar-feed-tokens': [ADMIN],
  'GET /v1/calendar-feed-tokens': [ADMIN],
  'DELETE /v1/calendar-feed-tokens/:id': [ADMIN],
  'POST /v1/webhook-endpoints': [ADMIN],
  'GET /v1/webhook-endpoints': [A],
  'GET /v1/webhook-endpoints/:id': [A],
  'PATCH /v1/webhook-endpoints/:id': [ADMIN],
  'DELETE /v1/webhook-endpoints/:id': [ADMIN],
  'POST /v1/webhook-endpoints/:id/rotate-secret': [ADMIN],
  'POST /v1/webhook-endpoints/:id/ping': [ADMIN],
  'GET /v1/webhook-endpoints/:id/deliveries': [A],
  'POST /v1/webhook-deliveries/:id/resend': [ADMIN],
  // MCP (P73): every role may connect; each tool is gated per key (MCP_RULES below).
  'POST /mcp': [D, W, A],
  'GET /mcp': [D, W, A],
  'DELETE /mcp': [D, W, A],
};

/** Issue 15 / D17 per MCP tool: who sees it in tools/list and may call it (admin always). */
const MCP_RULES: Record<string, { roles: Role[]; arguments: Record<string, unknown> }> = {
  tool_health_set_unavailable: {
    roles: [W],
    arguments: { scope: 'GLOBAL', toolName: 'jira', classification: 'INTERMITTENT', note: 'matrix' },
  },
  tool_health_set_available: { roles: [W], arguments: { scope: 'GLOBAL', toolName: 'jira', note: 'matrix' } },
  tool_health_set_cooldown: {
    roles: [W],
    arguments: { scope: 'GLOBAL', toolName: 'jira', errorSignature: 'http-429', classification: 'INTERMITTENT' },
  },
  tool_health_clear: { roles: [W], arguments: { scope: 'GLOBAL', toolName: 'jira' } },
  tool_health_get: { roles: [W, A], arguments: { scope: 'GLOBAL', toolName: 'jira' } },
  tool_health_lookup: { roles: [W, A], arguments: { toolName: 'jira', projectId: 'p-1' } },
};

const KEY_OF: Record<Role, string> = { [D]: KEYS.dispatcher, [W]: KEYS.writer, [A]: KEYS.audit, [ADMIN]: KEYS.admin };
const ALL_ROLES = [D, W, A, ADMIN];
const PARAMS: Record<string, string> = {
  sessionId: 's-1',
  toolName: 'jira',
  tenantId: 't-1',
  name: 'tool_health_clear',
  id: 'no-such-window',
};

const KEY_VARS = { scope: 'GLOBAL', toolName: 'jira' };
const GRAPHQL_RULES: Record<string, { roles: Role[]; query: string; variables?: Record<string, unknown> }> = {
  'Query.toolHealth': { roles: [A], query: '{ toolHealth(scope: GLOBAL, toolName: "jira") { id } }' },
  'Query.toolHealths': { roles: [A], query: '{ toolHealths(first: 1) { pageInfo { hasNextPage } } }' },
  'Query.effectiveHealth': { roles: [A], query: '{ effectiveHealth(toolName: "jira") { status } }' },
  'Query.toolOverview': { roles: [A], query: '{ toolOverview(toolName: "jira") { toolName } }' },
  'Query.annotatedTool': { roles: [A], query: '{ annotatedTool(toolName: "jira") { status } }' },
  'Query.viewer': { roles: [A], query: '{ viewer { name } }' },
  'Query.toolStats': { roles: [A], query: '{ toolStats(toolName: "jira") { lastHour { calls } } }' },
  'Query.toolSignals': { roles: [A], query: '{ toolSignals { toolName } }' },
  'Query.toolUptime': { roles: [A], query: '{ toolUptime(toolName: "jira", days: 1) { days { day } } }' },
  'Query.failureCheck': { roles: [A], query: '{ failureCheck(toolName: "jira", errorSignature: "http-500") { spawn } }' },
  'Query.cooldownsDueForSweep': { roles: [A], query: '{ cooldownsDueForSweep { toolHealth { id } } }' },
  'Query.dueForProbe': { roles: [A], query: '{ dueForProbe { id } }' },
  'Query.healthEvents': { roles: [A], query: '{ healthEvents(first: 1) { pageInfo { hasNextPage } } }' },
  'Query.node': { roles: [A], query: '{ node(id: "GLOBAL|%00|jira") { id } }' },
  'Query.tenantSettings': { roles: [A], query: '{ tenantSettings(tenantId: "t-1") { tenantId } }' },
  'Mutation.markUnavailable': {
    roles: [ADMIN],
    query: 'mutation($i: MarkUnavailableInput!) { markUnavailable(input: $i) { id } }',
    variables: { i: { ...KEY_VARS, code: 'BACKEND_FAILED' } },
  },
  'Mutation.markIntermittent': {
    roles: [ADMIN],
    query: 'mutation($i: MarkIntermittentInput!) { markIntermittent(input: $i) { id } }',
    variables: { i: KEY_VARS },
  },
  'Mutation.markAvailable': {
    roles: [ADMIN],
    query: 'mutation($i: MarkAvailableInput!) { markAvailable(input: $i) { id } }',
    variables: { i: KEY_VARS },
  },
  'Mutation.markToolUnavailable': {
    roles: [ADMIN],
    query: 'mutation($i: MarkUnavailableInput!) { markToolUnavailable(input: $i) { id } }',
    variables: { i: { ...KEY_VARS, code: 'BACKEND_FAILED' } },
  },
  'Mutation.markToolIntermittent': {
    roles: [ADMIN],
    query: 'mutation($i: MarkIntermittentInput!) { markToolIntermittent(input: $i) { id } }',
    variables: { i: KEY_VARS },
  },
  'Mutation.markToolAvailable': {
    roles: [ADMIN],
    query: 'mutation($i: MarkAvailableInput!) { markToolAvailable(input: $i) { id } }',
    variables: { i: KEY_VARS },
  },
  'Mutation.setCooldown': {
    roles: [ADMIN],
    query: 'mutation($i: SetCooldownInput!) { setCooldown(input: $i) { id } }',
    variables: { i: { ...KEY_VARS, errorSignature: 'http-403', classification: 'USER_INPUT' } },
  },
  'Mutation.clearCooldown': {
    roles: [ADMIN],
    query: 'mutation($i: ClearCooldownInput!) { clearCooldown(input: $i) { id } }',
    variables: { i: { ...KEY_VARS, errorSignature: 'http-403' } },
  },
  'Mutation.recordDiagnosis': {
    roles: [ADMIN],
    query: 'mutation($i: RecordDiagnosisInput!) { recordDiagnosis(input: $i) { id } }',
    variables: { i: { ...KEY_VARS, classification: 'WORKING' } },
  },
  'Mutation.clearToolHealth': {
    roles: [ADMIN],
    query: 'mutation($i: ClearToolHealthInput!) { clearToolHealth(input: $i) { id } }',
    variables: { i: KEY_VARS },
  },
  'Mutation.runSweep': { roles: [ADMIN], query: 'mutation { runSweep { removed } }' },
  'Mutation.sweepCooldowns': { roles: [ADMIN], query: 'mutation { sweepCooldowns { removed } }' },
  'Mutation.changeCooldownWindow': {
    roles: [ADMIN],
    query: 'mutation($i: ChangeCooldownWindowInput!) { changeCooldownWindow(input: $i) { id } }',
    variables: { i: { ...KEY_VARS, errorSignature: 'http-403', windowMs: 60000 } },
  },
  'Mutation.setTenantHistoryLimit': {
    roles: [ADMIN],
    query: 'mutation($i: SetTenantHistoryLimitInput!) { setTenantHistoryLimit(input: $i) { tenantId } }',
    variables: { i: { tenantId: 't-1', historyLimit: 30 } },
  },
  'Mutation.pinToolHealth': {
    roles: [ADMIN],
    query: 'mutation($i: PinToolHealthInput!) { pinToolHealth(input: $i) { id } }',
    variables: { i: { ...KEY_VARS, status: 'OK', until: '2030-01-01T00:00:00Z', reason: 'matrix' } },
  },
  'Mutation.unpinToolHealth': {
    roles: [ADMIN],
    query: 'mutation($i: HealthKeyInput!) { unpinToolHealth(input: $i) { id } }',
    variables: { i: KEY_VARS },
  },
  'Mutation.deleteToolHealth': {
    roles: [ADMIN],
    query: 'mutation($i: HealthKeyInput!) { deleteToolHealth(input: $i) { id } }',
    variables: { i: KEY_VARS },
  },
  'Mutation.purgeToolHealth': {
    roles: [ADMIN],
    query: 'mutation($i: PurgeToolHealthInput!) { purgeToolHealth(input: $i) { deleted } }',
    variables: { i: { scope: 'SESSION', olderThan: '2020-01-01T00:00:00Z' } },
  },
  'Query.maintenanceWindows': { roles: [A], query: '{ maintenanceWindows { id } }' },
  'Mutation.scheduleMaintenance': {
    roles: [ADMIN],
    query: 'mutation($i: ScheduleMaintenanceInput!) { scheduleMaintenance(input: $i) { id } }',
    variables: { i: { ...KEY_VARS, from: '2030-01-01T00:00:00Z', until: '2030-01-01T02:00:00Z', reason: 'matrix' } },
  },
  'Mutation.changeMaintenance': {
    roles: [ADMIN],
    query: 'mutation($i: ChangeMaintenanceInput!) { changeMaintenance(input: $i) { id } }',
    variables: { i: { id: 'no-such-window', reason: 'matrix' } },
  },
  'Mutation.cancelMaintenance': { roles: [ADMIN], query: 'mutation { cancelMaintenance(id: "no-such-window") { id } }' },
  'Mutation.skipMaintenanceOccurrence': {
    roles: [ADMIN],
    query: 'mutation($i: SkipMaintenanceOccurrenceInput!) { skipMaintenanceOccurrence(input: $i) { id } }',
    variables: { i: { id: 'no-such-window', occurrence: '2030-01-01T00:00:00Z' } },
  },
  'Mutation.changeMaintenanceOccurrence': {
    roles: [ADMIN],
    query: 'mutation($i: ChangeMaintenanceOccurrenceInput!) { changeMaintenanceOccurrence(input: $i) { id } }',
    variables: { i: { id: 'no-such-window', occurrence: '2030-01-01T00:00:00Z', reason: 'matrix' } },
  },
  'Mutation.endMaintenanceSeries': {
    roles: [ADMIN],
    query: 'mutation($i: EndMaintenanceSeriesInput!) { endMaintenanceSeries(input: $i) { id } }',
    variables: { i: { id: 'no-such-window' } },
  },
  'Query.calendarFeedTokens': { roles: [ADMIN], query: '{ calendarFeedTokens { id } }' },
  'Mutation.createCalendarFeedToken': {
    roles: [ADMIN],
    query: 'mutation($i: CreateCalendarFeedTokenInput!) { createCalendarFeedToken(input: $i) { token } }',
    variables: { i: { label: 'matrix' } },
  },
  'Mutation.revokeCalendarFeedToken': { roles: [ADMIN], query: 'mutation { revokeCalendarFeedToken(id: "no-such-token") { id } }' },
  'Query.webhookEndpoints': { roles: [A], query: '{ webhookEndpoints { id } }' },
  'Query.webhookEndpoint': { roles: [A], query: '{ webhookEndpoint(id: "no-such-endpoint") { id } }' },
  'Query.webhookDeliveries': { roles: [A], query: '{ webhookDeliveries(endpointId: "no-such-endpoint") { id } }' },
  'Mutation.createWebhookEndpoint': {
    roles: [ADMIN],
    query: 'mutation($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { endpoint { id } } }',
    variables: { i: { url: 'http://127.0.0.1:9/matrix', enabled: false } },
  },
  'Mutation.changeWebhookEndpoint': {
    roles: [ADMIN],
    query: 'mutation($i: ChangeWebhookEndpointInput!) { changeWebhookEndpoint(input: $i) { id } }',
    variables: { i: { id: 'no-such-endpoint', description: 'matrix' } },
  },
  'Mutation.deleteWebhookEndpoint': { roles: [ADMIN], query: 'mutation { deleteWebhookEndpoint(id: "no-such-endpoint") { id } }' },
  'Mutation.rotateWebhookSecret': { roles: [ADMIN], query: 'mutation { rotateWebhookSecret(id: "no-such-endpoint") { secret } }' },
  'Mutation.pingWebhookEndpoint': { roles: [ADMIN], query: 'mutation { pingWebhookEndpoint(id: "no-such-endpoint") { id } }' },
  'Mutation.resendWebhookDelivery': { roles: [ADMIN], query: 'mutation { resendWebhookDelivery(id: "no-such-delivery") { id } }' },
  // Subscriptions are authorised in connection_init; graphql-subscription.e2e-spec.ts calls them with every key.
  'Subscription.toolHealthChanged': { roles: [A], query: '' },
};

interface RestRoute {
  key: string;
  method: string;
  url: string;
  rule: Rule | undefined;
  declared: Rule;
}

function restRoutes(t: TestApp): RestRoute[] {
  const routes: RestRoute[] = [];
  for (const module of t.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
      if (!controller) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        const path =
          `/${[base, String(Reflect.getMetadata(PATH_METADATA, handler) ?? '')].filter((p) => p && p !== '/').join('/')}`.replace(
            /\/+/g,
            '/',
          );
        const isPublic = Reflect.getMetadata(PUBLIC_KEY, handler) ?? Reflect.getMetadata(PUBLIC_KEY, controller);
        const roles = (Reflect.getMetadata(ROLES_KEY, handler) ?? Reflect.getMetadata(ROLES_KEY, controller) ?? [ADMIN]) as Role[];
        const key = `${method} ${path}`;
        routes.push({
          key,
          method,
          url: path.replace(/:(\w+)/g, (_, p: string) => PARAMS[p] ?? 'x'),
          rule: REST_RULES[key],
          declared: isPublic ? 'public' : roles,
        });
      }
    }
  }
  return routes;
}

describe('authorization matrix (D17)', () => {
  let t: TestApp;
  let routes: RestRoute[];

  beforeAll(async () => {
    t = await createTestApp();
    routes = restRoutes(t);
  });
  afterAll(() => t.close());

  const call = (route: { method: string; url: string }, key?: string) => {
    const req = (t.http as unknown as Record<string, (url: string) => import('supertest').Test>)[route.method.toLowerCase()](route.url);
    if (key) req.set('x-api-key', key);
    return route.method === 'GET' ? req : req.send({});
  };

  it('has a rule for every REST route the application serves, and no stale rule', () => {
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((r) => !r.rule).map((r) => r.key)).toEqual([]);
    expect(Object.keys(REST_RULES).filter((k) => !routes.some((r) => r.key === k))).toEqual([]);
  });

  it('declares on each route exactly the roles of the matrix', () => {
    const differences = routes
      .filter((r) => JSON.stringify(r.declared) !== JSON.stringify(r.rule === 'public' ? 'public' : [...(r.rule ?? [])]))
      .map((r) => `${r.key}: declared ${JSON.stringify(r.declared)}, matrix ${JSON.stringify(r.rule)}`);
    expect(differences).toEqual([]);
  });

  it('answers every REST route per the matrix: no key 401, wrong role 403, right role through', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const rule = route.rule!;
      if (rule === 'public') {
        const res = await call(route);
        if (res.status === 401 || res.status === 403) failures.push(`${route.key} (public) without key → ${res.status}`);
        continue;
      }
      const none = await call(route);
      if (none.status !== 401) failures.push(`${route.key} without key → ${none.status}`);
      const unknown = await call(route, 'not-a-configured-key');
      if (unknown.status !== 401) failures.push(`${route.key} unknown key → ${unknown.status}`);
      for (const role of ALL_ROLES) {
        const allowed = role === ADMIN || rule.includes(role);
        const res = await call(route, KEY_OF[role]);
        if (allowed && (res.status === 401 || res.status === 403))
          failures.push(`${route.key} as ${role} → ${res.status}, expected through`);
        if (!allowed && res.status !== 403) failures.push(`${route.key} as ${role} → ${res.status}, expected 403`);
      }
    }
    expect(failures).toEqual([]);
  });

  const mcp = (method: string, params: Record<string, unknown>, key?: string) => {
    const req = t.http.post('/mcp').set('content-type', 'application/json').set('accept', 'application/json, text/event-stream');
    if (key) req.set('x-api-key', key);
    return req.send({ jsonrpc: '2.0', id: 1, method, params });
  };

  it('has a rule for every MCP tool the endpoint serves', async () => {
    const res = await mcp('tools/list', {}, KEYS.admin).expect(200);
    expect((res.body.result.tools as { name: string }[]).map((tool) => tool.name).sort()).toEqual(Object.keys(MCP_RULES).sort());
  });

  it('answers every MCP tool per the matrix: no key 401, listed and callable exactly for its roles, refused otherwise', async () => {
    const failures: string[] = [];
    const none = await mcp('tools/list', {});
    if (none.status !== 401) failures.push(`tools/list without key → ${none.status}`);
    for (const role of ALL_ROLES) {
      const listed = ((await mcp('tools/list', {}, KEY_OF[role])).body.result?.tools ?? []).map((tool: { name: string }) => tool.name);
      const expected = Object.keys(MCP_RULES).filter((name) => role === ADMIN || MCP_RULES[name].roles.includes(role));
      if (JSON.stringify(listed) !== JSON.stringify(expected))
        failures.push(`tools/list as ${role} → ${JSON.stringify(listed)}, expected ${JSON.stringify(expected)}`);
    }
    for (const [name, rule] of Object.entries(MCP_RULES)) {
      const params = { name, arguments: rule.arguments };
      const unauthenticated = await mcp('tools/call', params);
      if (unauthenticated.status !== 401) failures.push(`${name} without key → ${unauthenticated.status}`);
      for (const role of ALL_ROLES) {
        const allowed = role === ADMIN || rule.roles.includes(role);
        const res = await mcp('tools/call', params, KEY_OF[role]);
        const error = res.body.error as { code: number; data?: { code?: string } } | undefined;
        if (allowed && (res.status !== 200 || error || res.body.result?.isError))
          failures.push(`${name} as ${role} → ${res.status} ${JSON.stringify(res.body)}, expected through`);
        if (!allowed && (error?.code !== -32602 || error.data?.code !== 'FORBIDDEN'))
          failures.push(`${name} as ${role} → ${res.status} ${JSON.stringify(res.body)}, expected FORBIDDEN`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('has a rule for every GraphQL operation of the schema', () => {
    const schema = t.app.get(GraphQLSchemaHost).schema;
    const fields = (['Query', 'Mutation', 'Subscription'] as const).flatMap((type) =>
      Object.keys((schema.getType(type) as GraphQLObjectType | undefined)?.getFields() ?? {}).map((f) => `${type}.${f}`),
    );
    expect(fields.filter((f) => !GRAPHQL_RULES[f])).toEqual([]);
    expect(Object.keys(GRAPHQL_RULES).filter((f) => !fields.includes(f))).toEqual([]);
  });

  it('answers every GraphQL query and mutation per the matrix: no key 401, wrong role FORBIDDEN, right role through', async () => {
    const failures: string[] = [];
    for (const [field, rule] of Object.entries(GRAPHQL_RULES)) {
      if (field.startsWith('Subscription.')) continue;
      const send = (key?: string) => {
        const req = t.http.post('/graphql').set('content-type', 'application/json');
        if (key) req.set('x-api-key', key);
        return req.send({ query: rule.query, variables: rule.variables });
      };
      const none = await send();
      if (none.status !== 401) failures.push(`${field} without key → HTTP ${none.status}`);
      for (const role of ALL_ROLES) {
        const allowed = role === ADMIN || rule.roles.includes(role);
        const res = await send(KEY_OF[role]);
        const codes = ((res.body.errors ?? []) as { extensions?: { code?: string } }[]).map((e) => e.extensions?.code);
        if (allowed && (res.status === 401 || codes.includes('FORBIDDEN') || codes.includes('UNAUTHENTICATED')))
          failures.push(`${field} as ${role} → ${res.status} ${codes}`);
        if (allowed && codes.includes('GRAPHQL_VALIDATION_FAILED'))
          failures.push(`${field}: the matrix's operation is invalid: ${JSON.stringify(res.body.errors)}`);
        if (!allowed && !codes.includes('FORBIDDEN')) failures.push(`${field} as ${role} → ${res.status} ${codes}, expected FORBIDDEN`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('production settings (D17)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: 'production' } });
  });
  afterAll(() => t.close());

  it('hides the docs and the playground, keeps the probes open', async () => {
    await t.http.get('/docs').expect(404);
    await t.http.get('/docs/openapi.json').expect(404);
    await t.http.get('/graphql').set('accept', 'text/html').expect(404);
    await t.http.get('/health/live').expect(200);
    await t.http.get('/health/ready').expect(200);
    await t.http.get('/metrics').expect(401);
  });
});
