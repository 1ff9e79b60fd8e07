/**
 * What every host function we give a plugin does around its own work (WASI,
 * the embedder's functions): charge fuel for it and check the deadline, the
 * budget and the abort flag, so that a plugin that mostly calls the host is
 * stopped like one that computes. Fuel does not see time spent in the host;
 * this does.
 */
import { StopSignal, type Meter } from './meter.js';

/** Fuel charged for entering any host function, before its own work. */
export const HOST_CALL_FUEL = 100;
/** Data moved across the boundary is charged one fuel unit per this many bytes. */
export const BYTES_PER_FUEL = 16;

/** A plugin's `proc_exit`: not a stop by the host, an outcome the engine reports (0 = ok). */
export class ProcExit extends Error {
  constructor(readonly exitCode: number) {
    super(`the plugin exited with code ${exitCode}`);
    this.name = 'ProcExit';
  }
}

/** Fuel for a host call that moves `bytes` bytes. */
export const hostCallFuel = (bytes = 0): number => HOST_CALL_FUEL + Math.ceil(bytes / BYTES_PER_FUEL);

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
  meter.handedOut += units;
  if (meter.handedOut + meter.overshoot > meter.budget.fuel) {
    meter.stop('FUEL_EXHAUSTED', `the call burnt its fuel budget of ${meter.budget.fuel} units`);
  }
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
