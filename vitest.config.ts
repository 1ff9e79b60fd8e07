import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Builds the C test modules (cached by content hash): scripts/build-c.ts.
    globalSetup: ['test/setup/build-c.ts'],
  },
});
