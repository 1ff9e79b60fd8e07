import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two at least: test/xrt.test.ts spends most of its ~7 minutes waiting on its runtimes' child
    // processes, and vitest's default (cores - 1) gives a 2-core machine one worker, so every other file
    // waited behind it. The suite holds at load 10 this way (timing tests keep their documented slack).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Builds the C test modules (cached by content hash): scripts/build-c.ts.
    globalSetup: ['test/setup/build-c.ts'],
  },
});
