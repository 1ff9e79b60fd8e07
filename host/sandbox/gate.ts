/**
 * The host's side of the instrumenter's `gate` import (instrument/hostcalls.ts):
 * called before every host call that is not one of Extism's constant-time
 * accessors, and wherever an exception handler may resume. It throws the
 * call's stop (sticky, see Meter), or a new one if the call was aborted or ran
 * past its deadline, and returns the extra fuel a call reading a block owes.
 */
import type { CallContext } from '@extism/extism';
import { BYTES_PER_FUEL, charge } from './host-call.js';
import { GateKind } from './instrument/index.js';
import { StopSignal, type Meter } from './meter.js';

/** Handler entries read the clock every this many times (the stop and the abort flag: every time). */
const HANDLER_CLOCK_EVERY = 64;
const MAX_CHARGE = 0x7fffffff;
/**
 * Fuel per ms of unwinding a wasm exception: ordinary code's pace (9–13k fuel per µs of CPU,
 * docs/sandbox-instrumentation.md). The engine's unwind costs per frame it leaves (and on
 * JavaScriptCore per frame on the stack), 250–800 ns each, which no instruction of the module
 * shows: a flat charge per throw let a loop of throws from 4,000 frames down run 100–300× longer
 * per fuel than ordinary code. Time is the one measure that holds on every engine.
 */
const UNWIND_FUEL_PER_MS = 10_000_000;

export function gateImport(current: () => Meter | null): (cc: CallContext, kind: number, arg: bigint) => number {
  return (cc, kind, arg) => {
    const meter = current();
    // Outside a call (never expected): stop rather than run unmetered.
    if (!meter) throw new StopSignal('ABORTED', 'the plugin ran outside of a call');
    switch (kind as GateKind) {
      case GateKind.Handler:
        // The first gate a throw meets is where it landed (every place a handler resumes has one):
        // the unwind in between is charged by its time, as the code it stood for would have been.
        if (meter.thrownAt >= 0) unwound(meter);
        meter.gate(HANDLER_CLOCK_EVERY);
        return 0;
      case GateKind.Throw:
        meter.gate();
        meter.thrownAt = performance.now();
        return 0;
      case GateKind.Call:
        meter.gate();
        return 0;
      case GateKind.Block: {
        meter.gate();
        // The boundary's byte rate (floored, as the wrappers' length charge) on the block the host is
        // about to read (0 for an unknown address). Not a `>>>` shift: that is the rate written twice, mod 2^32.
        return Math.min(MAX_CHARGE, Math.floor(Number(cc.length(arg)) / BYTES_PER_FUEL));
      }
      default:
        throw new StopSignal('ABORTED', `the plugin called the sandbox gate with an unknown kind ${kind}`);
    }
  };
}

/** Charges the unwind since the plugin's last throw; a charge past the budget stops the call. */
function unwound(meter: Meter): void {
  const ms = performance.now() - meter.thrownAt;
  meter.thrownAt = -1;
  charge(meter, Math.min(MAX_CHARGE, Math.ceil(ms * UNWIND_FUEL_PER_MS)));
}

/**
 * The gate for a module run outside Extism (raw.ts): the same checks, called
 * without Extism's call context. Such a module has no Extism blocks, so a
 * block-reading call (only Extism and `wasmhooks:host` imports are planned
 * as such) is gated like any other and owes no extra fuel.
 */
export function rawGateImport(current: () => Meter | null): (kind: number, arg: bigint) => number {
  const gate = gateImport(current);
  const noBlocks = { length: () => 0n } as unknown as CallContext;
  return (kind, arg) => gate(noBlocks, kind, arg);
}
