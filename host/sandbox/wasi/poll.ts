/**
 * `poll_oneoff`: stdio is always ready, and a clock is waited out on the
 * caller's thread (a synchronous host cannot yield), watching the deadline
 * and the abort flag; a sleep that would end past the deadline stops the
 * call at once.
 */
import { checkDeadline } from '../host-call.js';
import { StopSignal, type Meter } from '../meter.js';
import type { Files } from './files.js';
import { Errno, type Guest } from './guest.js';

const MAX_SUBSCRIPTIONS = 64;

export function pollOneoff(
  guest: Guest,
  files: Files,
  meter: Meter | null,
  { inPtr, outPtr, count, nevents }: { inPtr: number; outPtr: number; count: number; nevents: number },
): number {
  if (count === 0 || count > MAX_SUBSCRIPTIONS) return Errno.INVAL;
  const view = guest.view();
  guest.bytes(inPtr, count * 48);
  guest.bytes(outPtr, count * 32);
  const now = () => BigInt(Math.round(performance.now() * 1e6));
  let wake: bigint | null = null;
  const ready: Array<{ userdata: bigint; type: number; error: number }> = [];
  for (let i = 0; i < count; i++) {
    const s = inPtr + i * 48;
    const userdata = view.getBigUint64(s, true);
    const type = view.getUint8(s + 8);
    if (type === 0) {
      const clock = view.getUint32(s + 16, true);
      const timeout = view.getBigUint64(s + 24, true);
      const absolute = (view.getUint16(s + 40, true) & 1) === 1;
      const at = absolute ? (clock === 0 ? timeout - BigInt(Date.now()) * 1_000_000n + now() : timeout) : now() + timeout;
      if (wake === null || at < wake) wake = at;
    } else {
      const fd = view.getUint32(s + 16, true);
      const d = files.get(fd);
      ready.push({ userdata, type, error: d ? Errno.SUCCESS : Errno.BADF });
    }
  }
  if (ready.length === 0 && wake !== null) {
        const deadline = BigInt(Math.round((meter?.budget.deadline ?? 0) * 1e6));
    if (wake > deadline) {
      throw new StopSignal('TIMEOUT', `the plugin asked to sleep past its deadline of ${meter?.budget.timeoutMs} ms`);
    }
    // A synchronous host cannot yield: wait out the (short) sleep, watching the abort flag.
    while (now() < wake) checkDeadline(meter);
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
