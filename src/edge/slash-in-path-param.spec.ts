import { paramRoute, rawSlashParameter } from './slash-in-path-param';

describe('a raw "/" in a path parameter (P243)', () => {
  const routes = [
    paramRoute('/v1/tools/:toolName/availability', ['GET']),
    paramRoute('/v1/tenants/:tenantId/settings', ['GET']),
    paramRoute('/v1/health/live', ['GET']),
    paramRoute('/docs/*', ['GET']),
  ].filter((r) => r !== undefined);

  it('keeps only routes with parameters and no wildcard', () => {
    expect(routes.map((r) => r.names)).toEqual([['toolName'], ['tenantId']]);
  });

  it('names the parameter a raw "/" went into, for the route\'s own method only', () => {
    expect(rawSlashParameter(routes, 'GET', '/v1/tools/jira/search/availability')).toBe('toolName');
    expect(rawSlashParameter(routes, 'GET', '/v1/tenants/acme/eu/settings')).toBe('tenantId');
    expect(rawSlashParameter(routes, 'POST', '/v1/tools/jira/search/availability')).toBeUndefined();
  });

  it('leaves a path no route could have produced alone (it stays a 404)', () => {
    expect(rawSlashParameter(routes, 'GET', '/v1/tools/jira/search')).toBeUndefined();
    expect(rawSlashParameter(routes, 'GET', '/v1/tools/jira_search/availability')).toBeUndefined();
    expect(rawSlashParameter(routes, 'GET', '/v2/tools/a/b/availability')).toBeUndefined();
  });
});
