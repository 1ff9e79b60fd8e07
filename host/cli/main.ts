#!/usr/bin/env node
// The `wasmhooks` command (built to dist/cli.js; bin/wasmhooks.mjs starts it).
import process from 'node:process';
import { processIO } from './io.js';
import { runCli } from './program.js';

// `wasmhooks run … | head` closes stdout early; that ends the command quietly, not with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const code = await runCli(process.argv.slice(2), processIO());
// Plugins, timers or sockets left open must not keep the command alive; let stdout drain first.
process.stdout.write('', () => process.exit(code));
