/** Two tiers: pure unit specs beside the code, e2e specs in test/ on a real database (D2). */
const transform = { '^.+\\.ts$': ['@swc/jest'] };

module.exports = {
  // Global on purpose: Jest ignores testTimeout inside a project entry.
  testTimeout: 30000,
  projects: [
    {
      displayName: 'unit',
      rootDir: 'src',
      testMatch: ['**/*.spec.ts'],
      transform,
      testEnvironment: 'node',
    },
    {
      displayName: 'e2e',
      rootDir: '.',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform,
      testEnvironment: 'node',
      globalSetup: '<rootDir>/test/setup/global-setup.mjs',
      globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
    },
  ],
};
