import { availableParallelism } from 'node:os';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

// The files that take minutes start first. On a fresh clone vitest has no timings and starts large
// files first, so test/xrt.test.ts (a few lines that run every scenario on three runtimes, ~11 minutes
// in CI) started last and the suite took ~19.5 minutes where ~12 is the work spread over two workers.
const LONGEST = ['test/xrt.test.ts', 'test/package/tarball.test.ts'];
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const at = LONGEST.findIndex((name) => f.moduleId.endsWith(name));
      return at < 0 ? LONGEST.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    sequence: { sequencer: LongestFirst },
    // Two at least: test/xrt.test.ts spends most of its ~7 minutes waiting on its runtimes' child
    // processes, and vitest's default (cores - 1) gives a 2-core machine one worker, so every other file
    // waited behind it. The suite holds at load 10 this way (timing tests keep their documented slack).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Builds the C test modules (cached by content hash): scripts/build-c.ts.
    globalSetup: ['test/setup/build-c.ts'],
  },
});
