// Runs every cross-runtime scenario file under Node (tsx), Deno and Bun,
// against the built ESM in dist/ (built once here).
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => `${root}node_modules/.bin/${name}`;
const runner = 'test/xrt/run.ts';

const runtimes: Record<string, string[]> = {
  node: [bin('tsx'), runner],
  deno: [bin('deno'), 'run', '-A', '--quiet', runner],
  bun: [bin('bun'), 'run', runner],
};

beforeAll(() => {
  if (!process.env.WASMHOOKS_SKIP_BUILD) execFileSync(bin('tsup'), { cwd: root, stdio: 'pipe', env: { ...process.env, WASMHOOKS_NO_DTS: '1' } });
}, 120_000);

describe('cross-runtime scenarios', () => {
  for (const [name, [cmd, ...args]] of Object.entries(runtimes)) {
    it(`pass on ${name}`, () => {
      const run = spawnSync(cmd!, args, { cwd: root, encoding: 'utf8', timeout: 480_000 });
      const out = `${run.stdout}\n${run.stderr}`;
      // The summary line, and every scenario that passed only when run again (run.ts), in the suite's log.
      for (const line of out.split('\n')) if (/^xrt\[|^ {2}FLAKY /.test(line)) console.log(`${name}: ${line}`);
      expect(out, out).toMatch(/: \d+ passed, 0 failed/);
      expect(run.status, out).toBe(0);
    }, 540_000);
  }
});
