// Runs every cross-runtime scenario file (test/xrt/*.xrt.ts, through test/xrt/run.ts) under one runtime,
// against the built ESM in dist/. One vitest file per runtime (test/xrt-node.test.ts, …-deno, …-bun): each
// takes 4–8 minutes on CI's two cores, and as three files they spread over vitest's workers instead of
// holding one worker for all three in a row (the whole suite waited on that one file).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = (name: string) => `${root}node_modules/.bin/${name}`;
const runner = 'test/xrt/run.ts';

const runtimes = {
  node: [bin('tsx'), runner],
  deno: [bin('deno'), 'run', '-A', '--quiet', runner],
  bun: [bin('bun'), 'run', runner],
} as const;

/**
 * Builds dist/ once per vitest run, whichever runtime's file gets here first: the others wait for it
 * (two tsup builds writing dist/ at once would race). The run's id comes from vitest.config.ts.
 */
async function buildOnce(): Promise<void> {
  if (process.env.WASMHOOKS_SKIP_BUILD) return;
  const runs = `${root}node_modules/.cache/wasmhooks-xrt`;
  const dir = `${runs}/${process.env.WASMHOOKS_TEST_RUN ?? process.pid}`;
  mkdirSync(runs, { recursive: true });
  let builder = false;
  try {
    mkdirSync(dir); // atomic: one file builds
    builder = true;
  } catch {
    // another runtime's file builds
  }
  if (builder) {
    try {
      execFileSync(bin('tsup'), { cwd: root, stdio: 'pipe', env: { ...process.env, WASMHOOKS_NO_DTS: '1' } });
      writeFileSync(`${dir}/done`, 'ok');
    } catch (error) {
      writeFileSync(`${dir}/done`, `the dist/ build failed: ${String((error as { stderr?: unknown }).stderr ?? error)}`);
    }
  }
  while (!existsSync(`${dir}/done`)) await new Promise((r) => setTimeout(r, 200));
  const result = readFileSync(`${dir}/done`, 'utf8');
  if (result !== 'ok') throw new Error(result);
}

/** The suite of one runtime: every scenario passes (a scenario that failed once and then passed is printed). */
export function xrtSuite(name: keyof typeof runtimes): void {
  beforeAll(buildOnce, 180_000);
  describe('cross-runtime scenarios', () => {
    it(`pass on ${name}`, () => {
      // WASMHOOKS_XRT_FILES=a.xrt.ts,b.xrt.ts runs those files only (all of them by default).
      const only = process.env.WASMHOOKS_XRT_FILES?.split(',').filter(Boolean) ?? [];
      const [cmd, ...args] = [...runtimes[name], ...only.map((f) => `test/xrt/${f.replace(/^.*\//, '')}`)];
      // On Node, the scenarios a vitest file runs verbatim are left to it (test/xrt/twin.ts).
      const env = name === 'node' ? { ...process.env, WASMHOOKS_XRT_NODE_TWINS: 'skip' } : process.env;
      const run = spawnSync(cmd, args, { cwd: root, env, encoding: 'utf8', timeout: 600_000, maxBuffer: 64 * 2 ** 20 });
      const out = `${run.stdout}\n${run.stderr}`;
      // The summary line, and every scenario that passed only when run again (run.ts), in the suite's log.
      for (const line of out.split('\n')) if (/^xrt\[|^ {2}FLAKY /.test(line)) console.log(`${name}: ${line}`);
      expect(out, out).toMatch(/: \d+ passed, 0 failed/);
      expect(run.status, out).toBe(0);
    }, 660_000);
  });
}
