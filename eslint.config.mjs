// ESLint (flat config) for src/ and test/: typescript-eslint's recommended rules, plus the house
// rule that keeps src/domain free of the framework and the database (the spec's rules as pure
// functions, time as an argument: docs/decisions.md P95). Formatting is Prettier's (.prettierrc);
// `npm run lint` runs both, and scripts/test.sh runs it as the lint tier.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The domain's imports (P95): no framework or database, for its code and its specs alike. */
const NO_FRAMEWORK_IN_DOMAIN = {
  group: ['@nestjs/*', 'mongoose', 'mongodb', 'class-validator', 'class-transformer', 'graphql', '@apollo/*', 'fastify', 'rxjs'],
  message: 'src/domain holds the pure rules: no framework or database import (P95).',
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.cache/**',
      'coverage/**',
      'bench/**',
      'scripts/**',
      'tools/**',
      'fuzz/**',
      '**/*.mjs',
      '**/*.cjs',
      '**/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    rules: {
      // Unused names fail the build already (tsconfig noUnusedLocals); a leading _ marks a deliberate one.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      // Nest's DI tokens are abstract classes and modules are empty decorated classes.
      '@typescript-eslint/no-extraneous-class': 'off',
      // Tests and a few adapters assert what the type system cannot know (e.g. a driver's reply).
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_FRAMEWORK_IN_DOMAIN,
            { group: ['../*', '!../domain/*'], message: 'src/domain imports only from src/domain (P95).' },
          ],
        },
      ],
      // Time comes in as an argument (P95): new Date() without an argument and Date.now() read the clock.
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'src/domain takes the time as an argument (P95).' },
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'src/domain takes the time as an argument (P95).',
        },
      ],
    },
  },
  {
    // Specs of the domain may build their documents with the document factories, and read the
    // table of hostile webhook targets, which import only the domain themselves (P154); nothing
    // else outside src/domain.
    files: ['src/domain/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_FRAMEWORK_IN_DOMAIN,
            {
              group: [
                '../*',
                '!../domain/*',
                // gitignore-style: a folder left out cannot have a file let back in, so each step down is let in, then out again
                '!../..',
                '../../*',
                '!../../test',
                '../../test/*',
                '!../../test/factories',
                '../../test/factories/*',
                '!../../test/factories/documents',
                '!../../test/factories/hostile-targets',
              ],
              message:
                'src/domain imports only from src/domain, its specs also the factories that import only the domain: test/factories/documents and hostile-targets (P95, P154).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'src/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
);
