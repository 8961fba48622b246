import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/src/**/*.test.ts', 'e2e/**/*.test.ts', 'apps/dashboard/tools/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    // The dashboard is built once before the tests that serve it.
    globalSetup: ['e2e/src/dashboard-global-setup.ts'],
    hookTimeout: 30_000,
    // A JSON summary beside the console output lets .ci/run print its closing count line.
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
  },
});
