/**
 * Finding prompts whose replica died: a session marked running whose lease
 * has expired. Whichever replica claims it first (the store decides) cancels
 * its pending control requests, records an `INTERRUPTED` last result and
 * publishes `prompt.interrupted`; the session can then be prompted anywhere.
 */
import type { StoredResult, SessionStore } from '../store/types.js';
import type { EventHub } from '../server/hub.js';

/**
 * `runsHere` names the prompts this replica still runs: a lapsed lease of its own (a stalled process, a renewal late)
 * is not an orphan to it; the prompt renews it with its fencing token unless another replica claimed it first.
 */
export async function sweepInterrupted(store: SessionStore, hub: EventHub, runsHere: (id: string) => boolean = () => false): Promise<number> {
  let found = 0;
  for (const { id, owner } of await store.orphans()) {
    if (runsHere(id)) continue;
    if (!(await store.claimOrphan(id, owner))) continue;
    found++;
    for (const request of await store.controls(id)) {
      if (await store.deleteControl(id, request.id)) {
        hub.emit('control.cancelled', { id: request.id, sessionId: id, subtype: request.subtype, reason: 'interrupted' });
      }
    }
    const message = `the prompt was interrupted: replica ${owner} stopped before it finished (its lease expired); prompt the session again to continue`;
    const lastResult: StoredResult = { subtype: 'error_during_execution', text: '', turns: 0, durationMs: 0, error: { code: 'INTERRUPTED', message } };
    await store.update(id, { lastResult });
    hub.emit('prompt.interrupted', { sessionId: id, replica: owner, message });
  }
  return found;
}
