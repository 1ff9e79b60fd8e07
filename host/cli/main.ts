#!/usr/bin/env node
// The `wasmhooks` command (built to dist/cli.js; bin/wasmhooks.mjs starts it).
import process from 'node:process';

// The Extism SDK loads node:wasi, for which Node prints an ExperimentalWarning
// on every start: noise for people using the command. Other warnings are kept.
// The filter must be in place before the SDK loads, hence the dynamic imports below.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name !== 'ExperimentalWarning') process.stderr.write(`${warning.name}: ${warning.message}\n`);
});

// `wasmhooks run … | head` closes stdout early; that ends the command quietly, not with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// Under Bun, what the working directory's .env and bunfig.toml did is done before this line (bun-workspace.ts).
if ('Bun' in globalThis) {
  const { bunWorkspaceFiles } = await import('./bun-workspace.js');
  const refused = await bunWorkspaceFiles(process.cwd(), process.execArgv);
  if (refused !== undefined) {
    process.stderr.write(`wasmhooks: ${refused}\n`);
    process.exit(2);
  }
}

const { runCli } = await import('./program.js');
const { processIO } = await import('./io.js');
const code = await runCli(process.argv.slice(2), processIO());
// Plugins, timers or sockets left open must not keep the command alive; let stdout drain first.
process.stdout.write('', () => process.exit(code));
