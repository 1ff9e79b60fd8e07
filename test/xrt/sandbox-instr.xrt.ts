// Issue 12's sandbox holes on Node, Deno and Bun, against the ESM build: the
// hostile modules of test/fixtures/hostile/holes.ts (exception handlers that
// swallow the stop, operand-sized table work, host-call floods, fuel
// overdraw, uncapped tables, invalid modules). Each stopped call ends within
// max(2 × deadline, deadline + 50 ms), with the right failure; the process's
// RSS stays bounded; a guard built from a hole denies; a healthy plugin
// answers afterwards.
import assert from 'node:assert/strict';
import {
  createHost,
  createSandbox,
  loadPlugin,
  scriptedModel,
  type CallOutcome,
  type HostEvent,
  type SandboxedModule,
} from '../../dist/index.js';
import type { Code, Hole } from '../fixtures/hostile/holes.js';

// The hostile modules are shared with the vitest suite. A computed URL so that every runtime loads
// the .ts file itself (Deno resolves no .js → .ts without sloppy imports).
type Holes = typeof import('../fixtures/hostile/holes.js');
const holesUrl = new URL('../fixtures/hostile/holes.ts', import.meta.url).href;
const { ECHO, asGuard, assembleHole, engineCallHoles, exceptionHoles, invalidModules, operandHoles, straightLine, tableHoles } = (await import(
  holesUrl
)) as Holes;

const runtime = 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : 'node';
const DEADLINE = 50;
const BOUND = Math.max(2 * DEADLINE, DEADLINE + 50);
const text = (s: string) => new TextEncoder().encode(s);
const str = (b: Uint8Array) => new TextDecoder().decode(b);

function rss(): number {
  const deno = (globalThis as { Deno?: { memoryUsage(): { rss: number } } }).Deno;
  return deno ? deno.memoryUsage().rss : process.memoryUsage().rss;
}

let echo: SandboxedModule | undefined;
async function healthyStillAnswers(label: string): Promise<void> {
  echo ??= await createSandbox(await assembleHole(ECHO), { name: 'echo' });
  const outcome = await echo.call('run', text(label));
  assert.equal(outcome.ok && str(outcome.output), label, `after ${label}`);
}

interface Run {
  code: Code;
  elapsed: number;
  outcome?: CallOutcome;
}

async function runOnce(hole: Hole, overrides: Hole['limits'] = {}): Promise<Run> {
  let sandbox: SandboxedModule;
  try {
    sandbox = await createSandbox(await assembleHole(hole.wat), {
      name: hole.name,
      limits: { timeoutMs: DEADLINE, fuel: 1e15, ...hole.limits, ...overrides },
      allowExceptions: hole.allowExceptions ?? false,
      quarantine: { maxConsecutiveFailures: 100 },
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'INVALID_WASM') return { code: 'INVALID_WASM', elapsed: 0 };
    throw error;
  }
  try {
    const started = performance.now();
    const outcome = await sandbox.call('run', new Uint8Array(0));
    return { code: outcome.ok ? 'ok' : (outcome.failure.code as Code), elapsed: performance.now() - started, outcome };
  } finally {
    await sandbox.close();
  }
}

/** One retry past the bound (a GC pause or a descheduled process on a loaded machine), the faster kept. */
async function run(hole: Hole, overrides: Hole['limits'] = {}): Promise<Run> {
  const first = await runOnce(hole, overrides);
  if (first.elapsed < BOUND) return first;
  const second = await runOnce(hole, overrides);
  return second.elapsed < first.elapsed ? second : first;
}

async function stoppedInTime(holes: Hole[], extra: Partial<Hole> = {}): Promise<void> {
  const times: string[] = [];
  for (const hole of holes) {
    const r = await run({ ...hole, ...extra });
    assert.ok(hole.expect.includes(r.code), `${hole.name}: ${r.code} ${r.outcome && !r.outcome.ok ? r.outcome.failure.message : ''}`);
    assert.ok(r.elapsed < BOUND, `${hole.name}: ${r.elapsed.toFixed(1)} ms, bound ${BOUND} ms`);
    times.push(r.code === 'INVALID_WASM' ? 'refused' : r.elapsed.toFixed(0));
    await healthyStillAnswers(hole.name);
  }
  console.log(`    [${runtime}] timeoutMs ${DEADLINE}: ${times.join(', ')} ms`);
}

export const scenarios: Record<string, () => Promise<void>> = {
  'exception handling: refused by default, naming the opt-in': async () => {
    for (const hole of exceptionHoles) {
      await assert.rejects(createSandbox(await assembleHole(hole.wat), { name: hole.name }), (e: { code?: string; message?: string }) => {
        assert.equal(e.code, 'INVALID_WASM', hole.name);
        return true;
      });
    }
  },

  'exception handling with allowExceptions: every handler re-raises the stop (legacy and try_table)': () =>
    stoppedInTime(exceptionHoles, { allowExceptions: true }),

  'table ops charged by their length, host calls gated: stopped at the deadline': () => stoppedInTime(operandHoles),

  'the same holes under a small fuel budget: FUEL_EXHAUSTED, never more fuel than the budget': async () => {
    for (const hole of [...operandHoles, ...engineCallHoles]) {
      const r = await run(hole, { timeoutMs: 10_000, fuel: 500_000 });
      assert.equal(r.code, 'FUEL_EXHAUSTED', hole.name);
      assert.ok(r.outcome!.fuelUsed <= 500_000, `${hole.name}: ${r.outcome!.fuelUsed}`);
    }
    const straight = await run({ name: 'straight', wat: straightLine(100_000), expect: [] }, { timeoutMs: 5_000, fuel: 20_000 });
    assert.equal(straight.code, 'FUEL_EXHAUSTED');
    assert.ok(straight.outcome!.fuelUsed <= 20_000, `straight line: ${straight.outcome!.fuelUsed}`);
  },

  'tables capped in the binary: host RSS stays bounded': async () => {
    const before = rss();
    for (const hole of tableHoles) {
      for (let i = 0; i < 3; i++) {
        const r = await run(hole, { timeoutMs: 5_000 });
        assert.ok(hole.expect.includes(r.code), `${hole.name}: ${r.code}`);
      }
    }
    for (const hole of operandHoles.slice(0, 4)) await run(hole);
    const grown = (rss() - before) / 2 ** 20;
    console.log(`    [${runtime}] RSS growth over the table holes: ${grown.toFixed(1)} MiB`);
    // Caps: 1 MiB of memory and 100,000 table elements (~1.6 MiB) per instance; the rest is engine and JIT.
    assert.ok(grown < 96, `RSS grew by ${grown.toFixed(1)} MiB`);
    await healthyStillAnswers('tables');
  },

  'invalid modules are refused before instrumentation': async () => {
    for (const { name, wat } of invalidModules) {
      await assert.rejects(createSandbox(await assembleHole(wat, false), { name }), (e: { code?: string }) => {
        assert.equal(e.code, 'INVALID_WASM', name);
        return true;
      });
    }
  },

  'a PreToolUse guard built from a hole denies, within the slack, and the tool does not run': async () => {
    const guards: [Hole, boolean][] = [
      [exceptionHoles[1]!, true],
      [operandHoles[0]!, false],
      [operandHoles[4]!, false],
    ];
    for (const [hole, allowExceptions] of guards) {
      const plugin = await loadPlugin({ bytes: await assembleHole(asGuard(hole)) }, { limits: { timeoutMs: DEADLINE, fuel: 1e15 }, allowExceptions });
      let ran = 0;
      const host = createHost({
        plugins: [plugin],
        permissionMode: 'bypassPermissions',
        model: scriptedModel({ turns: [{ toolCalls: [{ name: 'Bash', input: { command: 'rm -rf /' } }] }, { text: 'done' }] }),
        tools: [
          {
            name: 'Bash',
            description: 'run a command',
            inputSchema: { type: 'object' },
            kind: 'js',
            run: async () => (ran++, { content: 'ran', isError: false }),
          },
        ],
      });
      const events: HostEvent[] = [];
      for await (const e of host.session().stream('go')) events.push(e);
      assert.equal(ran, 0, `${hole.name}: the tool ran`);
      assert.equal(events.filter((e) => e.type === 'tool.denied').length, 1, hole.name);
      const end = events.find((e) => e.type === 'hook.end') as { durationMs?: number } | undefined;
      if (end?.durationMs !== undefined) assert.ok(end.durationMs < 2 * BOUND, `${hole.name}: hook took ${end.durationMs} ms`);
      await plugin.close();
      await healthyStillAnswers(`guard ${hole.name}`);
    }
  },
};
