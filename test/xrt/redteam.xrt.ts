// Red team of this session's sandbox changes on Node, Deno and Bun, against
// the ESM build (test/fixtures/hostile/redteam.ts): threaded fuel attacked
// through variants, wrappers, handlers, multi-result functions and tail calls,
// and WASI floods of zero-byte calls and iovec arrays. Each stops at its
// deadline within max(2 × deadline, deadline + 50 ms), and under a small budget
// with FUEL_EXHAUSTED and no more fuel than the budget. Borrowed inputs: a call
// reads its own request even when it first awaits a rebuilt instance or is
// re-entered from a host function, and a plugin cannot write the caller's
// buffer. secret-redactor redacts a quoted value with an escaped quote whole.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createSandbox, loadPlugin, type CallOutcome, type HookInput, type SandboxedModule } from '../../dist/index.js';

type Red = typeof import('../fixtures/hostile/redteam.js');
const redUrl = new URL('../fixtures/hostile/redteam.ts', import.meta.url).href;
const { ECHO_TRAP, REENTRANT, SCRIBBLER, assembleThreaded, threadedHoles, wasiFloods } = (await import(redUrl)) as Red;
type RedHole = Red['threadedHoles'][number];

const runtime = 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : 'node';
const DEADLINE = 50;
const BOUND = Math.max(2 * DEADLINE, DEADLINE + 50);
const str = (b: Uint8Array) => new TextDecoder().decode(b);

async function runOnce(hole: RedHole, limits: RedHole['limits'] = {}): Promise<{ code: string; elapsed: number; outcome?: CallOutcome }> {
  let sandbox;
  try {
    sandbox = await createSandbox(await assembleThreaded(hole.wat), {
      name: hole.name,
      limits: { timeoutMs: DEADLINE, fuel: 1e15, ...limits },
      allowExceptions: hole.allowExceptions ?? false,
      wasi: hole.wasi ?? false,
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'INVALID_WASM') return { code: 'INVALID_WASM', elapsed: 0 };
    throw error;
  }
  try {
    const started = performance.now();
    const outcome = await sandbox.call('run', new Uint8Array(0));
    return { code: outcome.ok ? 'ok' : outcome.failure.code, elapsed: performance.now() - started, outcome };
  } finally {
    await sandbox.close();
  }
}

async function stopped(holes: RedHole[]): Promise<void> {
  const times: string[] = [];
  for (const hole of holes) {
    let r = await runOnce(hole);
    if (r.elapsed >= BOUND) r = await runOnce(hole); // one retry: a GC pause on a loaded machine
    assert.ok(hole.expect.includes(r.code as never), `${hole.name}: ${r.code}`);
    assert.ok(r.elapsed < BOUND, `${hole.name}: ${r.elapsed.toFixed(1)} ms, bound ${BOUND} ms`);
    times.push(r.code === 'INVALID_WASM' ? 'refused' : r.elapsed.toFixed(0));
    const poor = await runOnce(hole, { timeoutMs: 10_000, fuel: 2_000_000 });
    if (poor.code === 'INVALID_WASM') continue;
    assert.equal(poor.code, 'FUEL_EXHAUSTED', hole.name);
    // A fuel stop reports its whole budget, even when the charge that stopped it was an unwind a collector pause made huge.
    assert.equal(poor.outcome!.fuelUsed, 2_000_000, `${hole.name}: fuelUsed`);
  }
  console.log(`    [${runtime}] timeoutMs ${DEADLINE}: ${times.join(', ')} ms`);
}

export const scenarios: Record<string, () => Promise<void>> = {
  'threaded fuel: variants, wrappers, handlers, multi-result and tail calls mixed cannot outrun the deadline or the budget': () =>
    stopped(threadedHoles),
  'WASI floods (zero-byte calls, 1,024 iovecs a call) stop at the deadline and within the budget': () => stopped(wasiFloods),

  'borrowed inputs: read before call() returns even across a rebuilt instance; never written by the plugin': async () => {
    const echo = await createSandbox(await assembleThreaded(ECHO_TRAP), { name: 'echo', limits: { timeoutMs: 2_000 }, quarantine: { maxConsecutiveFailures: 100 } });
    const scribbler = await createSandbox(await assembleThreaded(SCRIBBLER), { name: 'scribbler', limits: { timeoutMs: 2_000 } });
    try {
      for (const size of [1024, 16 * 1024, 20_000]) {
        const buffer = new Uint8Array(size).fill(0x41);
        assert.equal((await echo.call('trap', new Uint8Array(0))).ok, false);
        const running = echo.call('run', buffer, { borrowed: true });
        buffer.fill(0x42);
        const outcome = await running;
        assert.ok(outcome.ok && str(outcome.output) === 'A'.repeat(size), `size ${size}: the call read the next request`);
        for (const borrowed of [false, true]) {
          const input = new Uint8Array(size).fill(0x41);
          const scribbled = await scribbler.call('scribble', input, { borrowed });
          assert.ok(scribbled.ok && str(scribbled.output) === 'X'.repeat(size));
          assert.ok(input.every((b) => b === 0x41), `size ${size}: the plugin wrote the caller's buffer`);
        }
      }
    } finally {
      await echo.close();
      await scribbler.close();
    }
  },

  're-entrant calls from a host function wait for the running call and see their own bytes': async () => {
    const echo = await createSandbox(await assembleThreaded(ECHO_TRAP), { name: 'echo', limits: { timeoutMs: 2_000 } });
    const lent = new Uint8Array(1024);
    const nested: Promise<unknown>[] = [];
    let self: SandboxedModule | undefined;
    let depth = 0;
    const poke = () => {
      if (depth++ > 0) return;
      lent.fill(0x42);
      nested.push(echo.call('run', lent, { borrowed: true }).then((o) => o.ok && str(o.output)));
      nested.push(self!.call('run', lent, { borrowed: true }).then((o) => o.ok && str(o.output)));
      lent.fill(0x43);
    };
    self = await createSandbox(await assembleThreaded(REENTRANT), {
      name: 'reentrant',
      limits: { timeoutMs: 2_000 },
      hostFunctions: { poke: { params: [], results: [], fn: () => poke() } },
    });
    try {
      lent.fill(0x41);
      const outcome = await self.call('run', lent, { borrowed: true });
      assert.equal(outcome.ok && str(outcome.output), 'A'.repeat(1024) + 'A');
      assert.deepEqual(await Promise.all(nested), ['B'.repeat(1024), 'B'.repeat(1024) + 'B']);
    } finally {
      await self.close();
      await echo.close();
    }
  },

  'secret-redactor redacts a quoted value with an escaped quote whole, and a name in JSON-escaped text': async () => {
    const bytes = new Uint8Array(await readFile(new URL('../../plugins/secret-redactor/build/secret-redactor.wasm', import.meta.url)));
    const redactor = await loadPlugin({ bytes });
    try {
      for (const output of ['{"password":"hun\\"ter22"}', 'DB_PASSWORD="hu\\"nter\\u0032\\u0032" x', '{"log":"{\\"password\\":\\"hunter22\\"}"}']) {
        const input: HookInput = {
          session_id: 'xrt', cwd: '/w', turn: 1, iteration: 1, permission_mode: 'default',
          hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'cat x' }, tool_response: output, tool_use_id: 't1',
        };
        const r = await redactor.callHook(input);
        const text = r.ok ? String(r.output.updatedOutput ?? output) : '';
        assert.ok(r.ok && !/nter/.test(text), `${output} -> ${text}`);
      }
    } finally {
      await redactor.close();
    }
  },
};
