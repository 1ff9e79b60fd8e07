// Red team of this session's sandbox changes on Node, Deno and Bun, against
// the ESM build (test/fixtures/hostile/redteam.ts): threaded fuel attacked
// through variants, wrappers, handlers, multi-result functions and tail calls,
// and WASI floods of zero-byte calls and iovec arrays. Each stops at its
// deadline within max(2 × deadline, deadline + 50 ms), and under a small budget
// with FUEL_EXHAUSTED and no more fuel than the budget.
import assert from 'node:assert/strict';
import { createSandbox, type CallOutcome } from '../../dist/index.js';

type Red = typeof import('../fixtures/hostile/redteam.js');
const redUrl = new URL('../fixtures/hostile/redteam.ts', import.meta.url).href;
const { assembleThreaded, threadedHoles, wasiFloods } = (await import(redUrl)) as Red;
type RedHole = Red['threadedHoles'][number];

const runtime = 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : 'node';
const DEADLINE = 50;
const BOUND = Math.max(2 * DEADLINE, DEADLINE + 50);

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
    assert.ok(poor.outcome!.fuelUsed <= 2_000_000 && poor.outcome!.fuelUsed > 1_000_000, `${hole.name}: fuelUsed ${poor.outcome!.fuelUsed}`);
  }
  console.log(`    [${runtime}] timeoutMs ${DEADLINE}: ${times.join(', ')} ms`);
}

export const scenarios: Record<string, () => Promise<void>> = {
  'threaded fuel: variants, wrappers, handlers, multi-result and tail calls mixed cannot outrun the deadline or the budget': () =>
    stopped(threadedHoles),
  'WASI floods (zero-byte calls, 1,024 iovecs a call) stop at the deadline and within the budget': () => stopped(wasiFloods),
};
