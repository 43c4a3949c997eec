import { defineConfig } from 'vitest/config';

// Tests run against sources: every workspace package exports a "source" condition
// that points at src/index.ts, so no build is needed before `npm test`.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'services/*/src/**/*.test.ts',
      'apps/*/src/**/*.test.ts',
      'docs/**/*.test.ts',
      'editors/**/*.test.ts',
      'deploy/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
