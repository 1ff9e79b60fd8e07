/**
 * The next prompt of a session whose last prompt has just ended. A prompt's
 * `agent.end` goes out once its transcript and `resumeAt` are written
 * (fix3's read-your-writes); its `lastResult` is stored and its lease
 * released after that, so a client that posts the next prompt as soon as it
 * sees `agent.end` met 409 for a moment. The end cannot wait for the release
 * instead: on a shared store the next prompt (on any replica) could then
 * publish its events before that end, two prompts of one session at once
 * (rv15). So the next prompt waits for the release: while the lease is held
 * by a prompt whose end is written (the record's `resumeAt` is no longer an
 * open reservation, host/store/resume-at.ts), the acquire is tried again, for
 * at most `READY_WAIT_MS`. A prompt still running (its reservation open) is
 * 409 at once, as before.
 */
import type { SessionStore } from '../store/types.js';

/** The longest a prompt waits for the previous one's release (its lastResult write and release: two store calls). */
const READY_WAIT_MS = 2_000;
const RETRY_MS = 20;

export interface Lease {
  fence: number;
  /**
   * When the acquire that took the lease was sent (a LeaseGate counts from it), on `performance.now()`: spans
   * measured in one process never read the wall clock, which a step (NTP) moves by seconds at once.
   */
  acquiredAt: number;
}

/**
 * Takes the session's prompt lease, waiting for a prompt that has ended to let it go; false when a prompt holds it.
 * `runningHere`: whether this replica still runs a prompt of the session (its lease is then not tried).
 */
export async function acquireWhenReady(store: SessionStore, id: string, owner: string, leaseMs: number, runningHere: () => boolean): Promise<Lease | false> {
  const until = performance.now() + READY_WAIT_MS;
  for (;;) {
    if (!runningHere()) {
      const acquiredAt = performance.now();
      const fence = await store.acquire(id, owner, leaseMs);
      if (fence !== false) return { fence, acquiredAt };
    }
    if (performance.now() >= until || (await store.get(id))?.resumeAt?.open === true) return false;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}
