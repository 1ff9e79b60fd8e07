#!/usr/bin/env node
// Regenerates the host's protobuf codec (host/protocol/gen/) from proto/.
// `--check` regenerates into a temp folder and fails if the committed code is stale.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const proto = join(root, 'proto/wasmhooks/v1/hooks.proto');
const target = join(root, 'host/protocol/gen');
const check = process.argv.includes('--check');
const out = check ? mkdtempSync(join(tmpdir(), 'wasmhooks-gen-')) : target;
const bin = (name) => join(root, 'node_modules/.bin', name);

execFileSync(bin('pbjs'), [
  '-t', 'static-module', '-w', 'es6',
  '--no-create', '--no-verify', '--no-delimited', '--no-convert', '--force-number',
  '-o', join(out, 'hooks.js'), proto,
], { stdio: 'inherit' });
execFileSync(bin('pbts'), ['-o', join(out, 'hooks.d.ts'), join(out, 'hooks.js')], { stdio: 'inherit' });

if (check) {
  const stale = ['hooks.js', 'hooks.d.ts'].filter(
    (f) => readFileSync(join(out, f), 'utf8') !== readFileSync(join(target, f), 'utf8'),
  );
  rmSync(out, { recursive: true, force: true });
  if (stale.length) {
    console.error(`host/protocol/gen is stale (${stale.join(', ')}): run npm run gen:proto`);
    process.exit(1);
  }
  console.log('host/protocol/gen is up to date');
}
