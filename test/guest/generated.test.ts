// Generated files must match their generators: the guest codec (from hooks.proto)
// and the shared vectors (from their spec).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const run = (script: string) => execFileSync(process.execPath, [script, '--check'], { cwd: repo, encoding: 'utf8', stdio: 'pipe' });

it('sdk-guest/assembly/gen/hooks.ts is what gen-codec makes from hooks.proto', () => {
  expect(run('sdk-guest/scripts/gen-codec.mjs')).toContain('up to date');
});

it('proto/testdata/vectors.json is what gen-vectors makes from its spec', () => {
  expect(run('scripts/gen-vectors.mjs')).toContain('up to date');
});
