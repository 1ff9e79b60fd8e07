/**
 * Renewing a held prompt lease, every third of it, for as long as it is
 * held: by a prompt's run (run.ts) and by anything else done under the lease
 * (`clear`, whose SessionEnd hooks may run for their whole timeout, a minute
 * by default). A lease held without renewals lapses after `leaseMs`, and
 * another replica's sweep then takes the session as an orphan: it reported
 * a prompt interrupted that never ran, stored that as the last result, and
 * let the next prompt start there while this replica still ended the session.
 */
import type { SessionStore } from '../store/types.js';

/**
 * Renews `id`'s lease (with its fencing token) every `leaseMs / 3`; `answered` hears each renewal's answer (true:
 * held, false: taken over, undefined: the store failed) with when it was sent. Returns the stop; a renewal sent
 * before it goes ahead of any later call on the same store connection (a release after it is not undone).
 */
export function heartbeat(
  store: SessionStore,
  id: string,
  replica: string,
  leaseMs: number,
  fence: number | undefined,
  answered: (held: boolean | undefined, sentAt: number) => void = () => {},
): () => void {
  const timer = setInterval(() => {
    // Counted from when the renewal was sent: the store runs it later, so its lease lasts at least this long.
    const sentAt = performance.now();
    // With the token, a renewal that comes late (a stalled process) still holds when nobody took the session meanwhile.
    store.renew(id, replica, leaseMs, fence).then(
      (held) => answered(held, sentAt),
      () => answered(undefined, sentAt),
    );
  }, Math.max(50, Math.floor(leaseMs / 3)));
  return () => clearInterval(timer);
}
