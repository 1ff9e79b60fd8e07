// The README's main command: `npm run demo` runs a guarded agent on the
// offline scripted model with the real WASM plugins.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

it('npm run demo shows the guards at work and ends in success', () => {
  const run = spawnSync('npm', ['run', '--silent', 'demo'], { cwd: root, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } });
  const out = run.stdout;
  expect(run.status, `${out}\n${run.stderr}`).toBe(0);
  expect(run.stderr).not.toMatch(/ExperimentalWarning/);
  expect(out).toMatch(/Loaded guard-shell@1\.0\.0, path-guard@/);
  expect(out).toMatch(/⊘ Bash\(rm -rf \/\) denied by guard-shell/);
  expect(out).toMatch(/⊘ Read\(.*etc\/passwd\) denied by path-guard/);
  expect(out).toMatch(/secret-redactor: redacted 1 secret/);
  expect(out).not.toMatch(/sk-proj-4f9a2c7e1b8d3f6a0c5e9b2d7f1a4c8e/);
  expect(out).toMatch(/Stop require-verification block/);
  expect(out).toMatch(/calc\(17 \* 25 \+ 3\).*→ 428/);
  expect(out).toMatch(/── success · 7 model calls · 6 tool calls \(2 denied\)/);
}, 150_000);
