/**
 * Three tiers (docs/decisions.md, "Test tiers"):
 * - unit: specs beside the code, no Nest container, no database: pure domain specs, and the
 *   service tier (P154) — feature services built by test/support/new-test-service.ts on the real
 *   write path with in-memory port fakes (test/fakes/), a fake clock and factories (test/factories/);
 * - e2e: test/**\/*.e2e-spec.ts on one throwaway mongo-java-server memory backend started by
 *   test/setup/global-setup.mjs (fast; loses everything on stop);
 * - persistent: test/persistent/**\/*.e2e-spec.ts, tests that need persistence or database
 *   faults (restart, SIGKILL, freeze, black hole, writer lease). Each file starts its own
 *   embedded H2 server (test/persistent/embedded-server.ts, test/support/own-server.ts);
 *   scripts/test.sh runs the tier with --runInBand (one file at a time).
 */
const transform = { '^.+\\.ts$': ['@swc/jest'] };

module.exports = {
  // Global on purpose: Jest ignores testTimeout inside a project entry.
  testTimeout: 30000,
  projects: [
    {
      displayName: 'unit',
      // The console's pure helpers (console/src) are unit-tested the same way.
      rootDir: '.',
      roots: ['<rootDir>/src', '<rootDir>/console/src'],
      testMatch: ['**/*.spec.ts'],
      transform,
      testEnvironment: 'node',
    },
    {
      displayName: 'e2e',
      rootDir: '.',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/persistent/'],
      transform,
      testEnvironment: 'node',
      globalSetup: '<rootDir>/test/setup/global-setup.mjs',
      setupFilesAfterEnv: ['<rootDir>/test/setup/empty-database.ts'],
      globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
    },
    {
      displayName: 'persistent',
      rootDir: '.',
      testMatch: ['<rootDir>/test/persistent/**/*.e2e-spec.ts'],
      transform,
      testEnvironment: 'node',
    },
  ],
};
