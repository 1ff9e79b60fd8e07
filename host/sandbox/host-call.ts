/**
 * What every host function we give a plugin does around its own work (WASI,
 * the embedder's functions): charge fuel for the data it moves and check the
 * deadline, the budget and the abort flag, so that a plugin that mostly calls
 * the host is stopped like one that computes. Fuel does not see time spent in
 * the host; this does.
 *
 * The call itself is charged in one place: the import wrapper the
 * instrumenter puts in front of every host function (instrument/hostcalls.ts)
 * charges `GATED_CALL_FUEL` and calls the gate (gate.ts), which checks the
 * stop, the abort flag and the deadline, before the function runs. The
 * functions here add only what depends on their work: the bytes they move.
 */
import { HOST_BYTES_PER_FUEL_LOG2 } from './instrument/hostcalls.js';
import type { CallContext } from '@extism/extism';
import { StopSignal, type Meter } from './meter.js';

/**
 * Data moved across the boundary is charged one fuel unit per this many
 * bytes: the rate the instrumenter's import wrappers charge for length
 * operands and blocks, so a byte costs the same on either side.
 */
export const BYTES_PER_FUEL = 2 ** HOST_BYTES_PER_FUEL_LOG2;

/** A plugin's `proc_exit`: not a stop by the host, an outcome the engine reports (0 = ok). */
export class ProcExit extends Error {
  constructor(readonly exitCode: number) {
    super(`the plugin exited with code ${exitCode}`);
    this.name = 'ProcExit';
  }
}

/** Fuel for moving `bytes` bytes across the boundary (on top of the call's own charge, made by its wrapper). */
export const bytesFuel = (bytes: number): number => Math.ceil(bytes / BYTES_PER_FUEL);

/**
 * Charges `units` to the running call and stops it (throws `StopSignal`)
 * when its deadline passed, its budget is spent or it was aborted. Outside a
 * call (`meter` null) nothing may run: that is a stop too.
 *
 * The charge is counted as fuel handed out and burnt at once; the module's
 * fuel global is left alone, because instrumented code keeps its counter in
 * a local across calls to imports and would write its own value back over
 * ours (docs/sandbox-instrumentation.md). The next refuel's budget check,
 * and the call's `fuelUsed`, include every charge.
 */
export function charge(meter: Meter | null, units: number): void {
  if (!meter) throw new StopSignal('ABORTED', 'the plugin called the host outside of a call');
  if (meter.stopped) throw meter.stopped;
  // A charge the budget cannot cover stops the call, which reports its budget as used (Meter.used): fuelUsed never
  // exceeds the budget (it did by up to one charge: 64 KiB written, 1,024 iovecs, a large random_get).
  if (meter.handedOut + meter.overshoot + units > meter.budget.fuel) {
    meter.stop('FUEL_EXHAUSTED', `the call burnt its fuel budget of ${meter.budget.fuel} units`);
  }
  meter.handedOut += units;
  checkDeadline(meter);
}

/**
 * The deadline and abort checks alone, as made when a host function returns.
 * Stops go through the meter, so they are sticky: a plugin that catches one
 * (wasm exception handling, allowed by `allowExceptions`) meets it again at
 * its handler's gate.
 */
export function checkDeadline(meter: Meter | null): void {
  if (!meter) throw new StopSignal('ABORTED', 'the plugin called the host outside of a call');
  meter.gate();
}

/** Extism's `free`, reached through the context's env table (not public API; skipped if absent). */
export function freeBlock(cc: CallContext, address: bigint): void {
  let env = envs.get(cc);
  if (env === undefined) {
    env = null;
    for (const symbol of Object.getOwnPropertySymbols(cc)) {
      const candidate = (cc as unknown as Record<symbol, unknown>)[symbol] as { free?: unknown } | null;
      if (candidate && typeof candidate.free === 'function') env = candidate as { free: (a: bigint) => void };
    }
    envs.set(cc, env);
  }
  env?.free(address);
}

const envs = new WeakMap<CallContext, { free: (address: bigint) => void } | null>();
