/**
 * `poll_oneoff`: stdio is always ready, and a clock is waited out on the
 * caller's thread (a synchronous host cannot yield); a sleep that would end
 * past the deadline stops the call at once. The thread blocks in
 * `Atomics.wait` on a private cell nobody notifies, in slices of at most
 * `SLEEP_SLICE_MS`, and looks at the deadline, a stop and the abort flag
 * between them: a sleep costs next to no CPU, never outlasts the deadline,
 * and an abort ends it within a slice (plus the OS's wake-up latency).
 * Where a thread may not block (a browser's main thread), it spins as before.
 *
 * At most `MAX_SUBSCRIPTIONS` per call (a count of 2^31 or more arrives
 * negative, as an i32: EINVAL too), and each subscription is charged like an
 * iovec: it is host work (48 bytes read, a descriptor looked up, an event
 * written) whatever the plugin paid for the call.
 */
import { charge, checkDeadline } from '../host-call.js';
import { HOST_CALL_FUEL } from '../instrument/hostcalls.js';
import { StopSignal, type Meter } from '../meter.js';
import type { Files } from './files.js';
import { Errno, type Guest } from './guest.js';
import { CLOCK_STEP_NS, isClockId } from './clock.js';

/** Subscriptions one call may pass; more is EINVAL. */
export const MAX_SUBSCRIPTIONS = 64;
/** Fuel per subscription, on top of the call's: that of a constant-time Extism accessor (as an iovec's). */
export const SUBSCRIPTION_FUEL = HOST_CALL_FUEL;
/** The longest single block of a sleep: the bound on how late an abort (worker isolation) ends one. */
export const SLEEP_SLICE_MS = 5;

export function pollOneoff(
  guest: Guest,
  files: Files,
  meter: Meter | null,
  { inPtr, outPtr, count, nevents }: { inPtr: number; outPtr: number; count: number; nevents: number },
): number {
  count >>>= 0;
  if (count === 0 || count > MAX_SUBSCRIPTIONS) return Errno.INVAL;
  charge(meter, count * SUBSCRIPTION_FUEL);
  const view = guest.view();
  guest.bytes(inPtr, count * 48);
  guest.bytes(outPtr, count * 32);
  const now = () => BigInt(Math.round(performance.now() * 1e6));
  let wake: bigint | null = null;
  const ready: Array<{ userdata: bigint; type: number; error: number }> = [];
  // WASI: a clock id that names no clock is EINVAL for the call (it was waited out as monotonic), checked
  // before anything is waited for or written.
  for (let i = 0; i < count; i++) {
    const s = inPtr + i * 48;
    if (view.getUint8(s + 8) === 0 && !isClockId(view.getUint32(s + 16, true))) return Errno.INVAL;
  }
  for (let i = 0; i < count; i++) {
    const s = inPtr + i * 48;
    const userdata = view.getBigUint64(s, true);
    const type = view.getUint8(s + 8);
    if (type === 0) {
      const clock = view.getUint32(s + 16, true);
      const timeout = view.getBigUint64(s + 24, true);
      const absolute = (view.getUint16(s + 40, true) & 1) === 1;
      const at = absolute ? (clock === 0 ? timeout - BigInt(Date.now()) * 1_000_000n + now() : timeout) : now() + timeout;
      // On the clock's step, as clock_time_get reads it: a wake-up at any nanosecond was a timer
      // finer than the 100 µs a plugin may see (a 1 ns sleep ended at once, a loop of them timed work).
      const stepped = stepUp(at);
      if (wake === null || stepped < wake) wake = stepped;
    } else {
      const fd = view.getUint32(s + 16, true);
      const d = files.get(fd);
      ready.push({ userdata, type, error: d ? Errno.SUCCESS : Errno.BADF });
    }
  }
  if (ready.length === 0 && wake !== null) {
    // No deadline (timeoutMs: Infinity) is no limit, not a value BigInt refuses.
    const deadline = meter?.budget.deadline ?? 0;
    if (Number.isFinite(deadline) && wake > BigInt(Math.round(deadline * 1e6))) {
      throw new StopSignal('TIMEOUT', `the plugin asked to sleep past its deadline of ${meter?.budget.timeoutMs} ms`);
    }
    for (let left = wake - now(); left > 0n; left = wake - now()) {
      checkDeadline(meter);
      pause(Math.min(SLEEP_SLICE_MS, Number(left) / 1e6));
    }
    for (let i = 0; i < count; i++) {
      const s = inPtr + i * 48;
      if (view.getUint8(s + 8) === 0) ready.push({ userdata: view.getBigUint64(s, true), type: 0, error: 0 });
    }
  }
  guest.bytes(outPtr, ready.length * 32).fill(0);
  ready.forEach((e, i) => {
    view.setBigUint64(outPtr + i * 32, e.userdata, true);
    view.setUint16(outPtr + i * 32 + 8, e.error, true);
    view.setUint8(outPtr + i * 32 + 10, e.type);
  });
  guest.u32(nevents, ready.length);
  return Errno.SUCCESS;
}

/** `ns` rounded up to the monotonic clock's step (`CLOCK_STEP_NS`, preview1.ts): the wake-ups a plugin can see. */
function stepUp(ns: bigint): bigint {
  const rest = ns % CLOCK_STEP_NS;
  return rest === 0n ? ns : ns - rest + (ns < 0n ? 0n : CLOCK_STEP_NS);
}

/** A cell of our own to block on (no one notifies it), or null where this thread may not block. */
let cell: Int32Array | null | undefined;

/** Blocks the thread for `ms` (returns at once where it may not block: the caller's loop then spins). */
function pause(ms: number): void {
  cell ??= blockable();
  if (cell) Atomics.wait(cell, 0, 0, ms);
}

function blockable(): Int32Array | null {
  try {
    const probe = new Int32Array(new SharedArrayBuffer(4));
    // Throws where the agent cannot suspend (or there is no SharedArrayBuffer); 'not-equal' otherwise.
    Atomics.wait(probe, 0, 1, 0);
    return probe;
  } catch {
    return null;
  }
}
