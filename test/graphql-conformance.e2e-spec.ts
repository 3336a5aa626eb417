import { spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { auditServer } from 'graphql-http';
import { KEYS, TestApp, createTestApp } from './support/test-app';

const ROOT = resolve(__dirname, '..');

/**
 * The published GraphQL conformance suites, pinned in package.json (P147, P148):
 * graphql-schema-linter 3.0.1 on the committed schema.gql, and graphql-http 1.23.1's server audits
 * against the served /graphql for each role that may use GraphQL.
 */
describe('GraphQL conformance suites', () => {
  it('graphql-schema-linter finds nothing in schema.gql', () => {
    const run = spawnSync(resolve(ROOT, 'node_modules/.bin/graphql-schema-linter'), ['schema.gql'], { cwd: ROOT, encoding: 'utf8' });
    expect(`${run.stdout}${run.stderr}`).toContain('0 errors detected');
    expect(run.status).toBe(0);
  });

  describe('graphql-http server audits', () => {
    let t: TestApp;
    let url: string;

    beforeAll(async () => {
      t = await createTestApp();
      const server = t.app.getHttpServer();
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
    });
    afterAll(() => t.close());

    it.each([
      ['admin', KEYS.admin],
      ['audit-reader', KEYS.audit],
    ])('the %s key: no MUST and no SHOULD failure', async (_role, key) => {
      // The audits send no key; every GraphQL request here needs one (P61), as its header.
      const fetchFn = (input: string | URL | Request, init: RequestInit = {}) => {
        const headers = new Headers(init.headers);
        headers.set('x-api-key', key);
        return fetch(input, { ...init, headers });
      };
      const results = await auditServer({ url, fetchFn });
      const failed = results
        // `notice` marks the MAY audits (optional GET forms); MUST failures are `error`, SHOULD ones `warn`.
        .filter((r) => r.status === 'error' || r.status === 'warn')
        .map((r) => `${r.status} ${r.name}${'reason' in r ? `: ${r.reason}` : ''}`);
      expect(failed).toEqual([]);
      expect(results.length).toBeGreaterThan(50);
    });
  });
});
