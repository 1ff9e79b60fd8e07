// Issue 12's classes of sandbox holes, on the caller's thread, each with
// several hostile variants (test/fixtures/hostile/holes.ts): the call ends
// within the documented slack of its deadline with the right failure, an
// invalid or refused module never loads, and a healthy plugin still answers.
// The same modules run on Node, Deno and Bun in test/xrt/sandbox-instr.xrt.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { createSandbox } from '../../host/sandbox/index.js';
import type { CallOutcome, SandboxedModule } from '../../host/sandbox/types.js';
import {
  ECHO,
  assembleHole,
  engineCallHoles,
  exceptionHoles,
  invalidModules,
  operandHoles,
  branchyLine,
  straightLine,
  tableHoles,
  uncaughtThrow,
  type Code,
  type Hole,
} from '../fixtures/hostile/holes.js';
import { str, text } from './sandbox-helpers.js';

const DEADLINE = 50;
/** The documented slack: a stopped call ends within max(2 × deadline, deadline + 50 ms). */
const BOUND = Math.max(2 * DEADLINE, DEADLINE + 50);

let echo: SandboxedModule;
beforeAll(async () => {
  echo = await createSandbox(await assembleHole(ECHO), { name: 'echo' });
});
afterAll(() => echo.close());

async function healthyStillAnswers(): Promise<void> {
  const outcome = await echo.call('run', text('still here'));
  expect(outcome.ok && str(outcome.output)).toBe('still here');
}

interface Run {
  code: Code;
  elapsed: number;
  outcome?: CallOutcome;
}

/**
 * Runs a hole; a run over the time bound is retried once and the faster kept:
 * a GC pause or a descheduled process on this shared 2-core machine is not the
 * plugin's doing, two in a row would be.
 */
async function run(hole: Hole, overrides: Hole['limits'] = {}): Promise<Run> {
  const first = await runOnce(hole, overrides);
  if (first.elapsed < BOUND) return first;
  const second = await runOnce(hole, overrides);
  return second.elapsed < first.elapsed ? second : first;
}

async function runOnce(hole: Hole, overrides: Hole['limits'] = {}): Promise<Run> {
  const limits = { timeoutMs: DEADLINE, fuel: 1e15, ...hole.limits, ...overrides };
  let sandbox: SandboxedModule;
  try {
    sandbox = await createSandbox(await assembleHole(hole.wat), {
      name: hole.name,
      limits,
      allowExceptions: hole.allowExceptions ?? false,
      quarantine: { maxConsecutiveFailures: 100 },
    });
  } catch (error) {
    if (error instanceof WasmhooksError && error.code === 'INVALID_WASM') return { code: 'INVALID_WASM', elapsed: 0 };
    throw error;
  }
  try {
    const started = performance.now();
    const outcome = await sandbox.call('run', new Uint8Array(0));
    const elapsed = performance.now() - started;
    return { code: outcome.ok ? 'ok' : (outcome.failure.code as Code), elapsed, outcome };
  } finally {
    await sandbox.close();
  }
}

describe('1. exception handling cannot swallow the stop', () => {
  it.each(exceptionHoles)('refused by default, with the opt-in named: $name', async (hole) => {
    const error = await createSandbox(await assembleHole(hole.wat), { name: hole.name }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WasmhooksError);
    expect((error as WasmhooksError).code).toBe('INVALID_WASM');
    // Where the runtime has the instruction at all, the message names the opt-in.
    if (!hole.expect.includes('INVALID_WASM')) expect((error as Error).message).toMatch(/allowExceptions: true/);
  });

  it.each(exceptionHoles)('with allowExceptions, every handler re-raises: $name', async (hole) => {
    const r = await run({ ...hole, allowExceptions: true });
    expect(hole.expect).toContain(r.code);
    expect(r.elapsed).toBeLessThan(BOUND);
    await healthyStillAnswers();
  });

  // The exact-count reference mode (instrument/exact.ts) gates handlers the same way.
  it.each(exceptionHoles)('exact mode, with allowExceptions, every handler re-raises: $name', async (hole) => {
    let sandbox: SandboxedModule;
    try {
      sandbox = await createSandbox(await assembleHole(hole.wat), {
        limits: { timeoutMs: DEADLINE, fuel: 1e15 },
        allowExceptions: true,
        metering: 'exact',
      });
    } catch (error) {
      expect((error as WasmhooksError).code).toBe('INVALID_WASM'); // try_table where the runtime lacks it
      expect(hole.expect).toContain('INVALID_WASM');
      return;
    }
    const started = performance.now();
    const outcome = await sandbox.call('run', new Uint8Array(0));
    await sandbox.close();
    expect(hole.expect).toContain(outcome.ok ? 'ok' : outcome.failure.code);
    expect(performance.now() - started).toBeLessThan(BOUND * 2);
  });

  it('an uncaught wasm exception fails the call (its message is failures.ts\'s)', async () => {
    const r = await run(uncaughtThrow, { timeoutMs: 2_000 });
    expect(r.code).toBe('TRAP');
    await healthyStillAnswers();
  });
});

describe('2. work that grows with an operand, and host calls, are charged and checked', () => {
  it.each(operandHoles)('stopped at the deadline: $name', async (hole) => {
    const r = await run(hole);
    expect(hole.expect).toContain(r.code);
    expect(r.elapsed).toBeLessThan(BOUND);
    await healthyStillAnswers();
  });

  it.each([...operandHoles, ...engineCallHoles])('charged by the operand: a small fuel budget stops it ($name)', async (hole) => {
    const r = await run(hole, { timeoutMs: 10_000, fuel: 500_000 });
    expect(r.code).toBe('FUEL_EXHAUSTED');
    expect(r.outcome!.fuelUsed).toBeLessThanOrEqual(500_000);
    expect(r.elapsed).toBeLessThan(1_000);
  });
});

describe('3. fuel is never overdrawn', () => {
  it.each([
    [100_000, 20_000],
    [100_000, 99_000],
    [30_000, 20_000],
  ])('a straight-line region of %i instructions under a budget of %i', async (size, budget) => {
    const r = await run({ name: 'straight', wat: straightLine(size), expect: [] }, { timeoutMs: 5_000, fuel: budget });
    expect(r.code).toBe('FUEL_EXHAUSTED');
    expect(r.outcome!.fuelUsed).toBeLessThanOrEqual(budget);
  });

  it('a straight line of 2,000 conditional blocks (100,000 instructions) under a budget of 20,000', async () => {
    const r = await run({ name: 'branchy', wat: branchyLine(2_000), expect: [] }, { timeoutMs: 5_000, fuel: 20_000 });
    expect(r.code).toBe('FUEL_EXHAUSTED');
    expect(r.outcome!.fuelUsed).toBeLessThanOrEqual(20_000);
  });

  it('a region that fits the budget runs, and reports what it used', async () => {
    const r = await run({ name: 'straight', wat: straightLine(10_000), expect: [] }, { timeoutMs: 5_000, fuel: 40_000 });
    expect(r.code).toBe('ok');
    expect(r.outcome!.fuelUsed).toBeGreaterThan(20_000);
    expect(r.outcome!.fuelUsed).toBeLessThanOrEqual(40_000);
  });
});

describe('4. tables are capped in the binary', () => {
  it.each(tableHoles)('$name', async (hole) => {
    const r = await run(hole, { timeoutMs: 5_000 });
    expect(hole.expect).toContain(r.code);
    await healthyStillAnswers();
  });

  it('a lower maxTableElements refuses a table the default accepts', async () => {
    const wat = '(module (table 5000 funcref) (func (export "run") (result i32) (i32.const 0)))';
    expect((await run({ name: 't', wat, expect: [] })).code).toBe('ok');
    expect((await run({ name: 't', wat, expect: [] }, { maxTableElements: 1000 })).code).toBe('INVALID_WASM');
  });
});

describe('5. invalid modules are refused before they are instrumented', () => {
  it.each(invalidModules)('$name', async ({ name, wat }) => {
    const bytes = await assembleHole(wat, false);
    expect(WebAssembly.validate(bytes as Uint8Array<ArrayBuffer>)).toBe(false);
    const error = await createSandbox(bytes, { name }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WasmhooksError);
    expect((error as WasmhooksError).code).toBe('INVALID_WASM');
  });
});
