import { defineConfig } from 'tsup';

// One ESM build that Node, Deno and Bun import unchanged. Dependencies stay
// external (resolved from node_modules by each runtime).

/** The package's entries, one per `exports` path in package.json (`.`, `./server`, `./mcp`, `./cli`). */
const PUBLIC = {
  index: 'host/index.ts',
  server: 'host/entries/server.ts',
  mcp: 'host/entries/mcp.ts',
  'cli-api': 'host/entries/cli.ts',
};

export default defineConfig({
  entry: {
    ...PUBLIC,
    // The `wasmhooks` command (bin/wasmhooks.mjs starts it).
    cli: 'host/cli/main.ts',
    // Loaded by URL next to index.js when a plugin runs with worker isolation.
    'sandbox-worker': 'host/sandbox/worker/sandbox-worker.ts',
    // Loaded by URL when a large module is validated and instrumented off the caller's thread.
    'instrument-worker': 'host/sandbox/worker/instrument-worker.ts',
  },
  format: ['esm'],
  target: 'es2022',
  platform: 'neutral',
  // Declarations are for publishing; the cross-runtime tests skip them (slow, and no runtime reads them).
  dts: process.env.WASMHOOKS_NO_DTS ? false : { entry: PUBLIC },
  sourcemap: true,
  // A declaration-less rebuild (the cross-runtime tests) keeps the last declarations for the type check.
  clean: !process.env.WASMHOOKS_NO_DTS,
  splitting: true,
  outDir: 'dist',
});
