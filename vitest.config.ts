import { availableParallelism } from 'node:os';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

// The files that take minutes start first. On a fresh clone vitest has no timings and starts large
// files first, so the cross-runtime files (a few lines each that run every scenario on one runtime,
// 4–8 minutes each in CI) started last and the suite took ~19.5 minutes where ~12 is the work spread
// over two workers. They were one file, which held one worker for all three runtimes in a row.
const LONGEST = ['test/xrt-node.test.ts', 'test/xrt-deno.test.ts', 'test/xrt-bun.test.ts', 'test/package/tarball.test.ts'];
// One id per vitest run, inherited by its workers: the cross-runtime files build dist/ once per run by it.
process.env.WASMHOOKS_TEST_RUN ??= `${Date.now()}-${process.pid}`;
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
    // Two at least: a cross-runtime file spends its minutes waiting on its runtime's child
    // processes, and vitest's default (cores - 1) gives a 2-core machine one worker, so every other file
    // waited behind it. The suite holds at load 10 this way (timing tests keep their documented slack).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Builds the C test modules (cached by content hash): scripts/build-c.ts.
    globalSetup: ['test/setup/build-c.ts'],
    // A RegExp in toMatchObject & co. is checked against the string (test/setup/regex-matches.ts).
    setupFiles: ['test/setup/regex-matches.ts'],
  },
});
