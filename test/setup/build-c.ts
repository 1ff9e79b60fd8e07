// Vitest global setup: builds the C wasm modules the tests use (scripts/build-c.ts),
// so that `npx vitest run <file>` works on a fresh clone. Cached by content hash:
// a no-op run costs one `clang --version`. Without clang it only warns; the
// tests that need a C module then fail saying what to install (test/fixtures/corpus.ts).
import { buildC } from '../../scripts/build-c.js';

export default async function setup(): Promise<void> {
  try {
    await buildC({ log: (line) => console.log(`[build-c] ${line}`) });
  } catch (error) {
    console.warn(`[build-c] C test modules not built: ${(error as Error).message}`);
  }
}
