#!/usr/bin/env node
// Entry of the `wasmhooks` command: starts the built CLI (dist/cli.js).
import process from 'node:process';

try {
  await import('../dist/cli.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli.js')) {
    process.stderr.write('wasmhooks: dist/cli.js is missing; run `npm run build` first (or `npx tsx host/cli/main.ts`).\n');
    process.exit(1);
  }
  throw error;
}
