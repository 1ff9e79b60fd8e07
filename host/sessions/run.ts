/**
 * One prompt under a lease: the heartbeat renews the lease while the prompt
 * runs, the result and the transcript are stored when it ends, then the
 * lease is released. A replica that lost its lease, or could not renew it
 * for a whole lease period (cut off from the store), aborts its prompt: by
 * then another replica may have reported it interrupted and run the next.
 */
import type { AgentResult } from '../events/types.js';
import { messageOf, WasmhooksError } from '../errors.js';
import type { EventHub } from '../server/hub.js';
import type { ServerSession } from '../server/types.js';
import type { Transcript } from '../store/transcript.js';
import { heartbeat } from './heartbeat.js';
import type { LeaseGate } from './lease-gate.js';
import type { SessionStore, StoredResult } from '../store/types.js';

export interface LeaseContext {
  store: SessionStore;
  hub: EventHub;
  replica: string;
  leaseMs: number;
}

const storedResult = (r: AgentResult): StoredResult => ({
  subtype: r.subtype,
  text: r.text,
  turns: r.turns,
  durationMs: r.durationMs,
  ...(r.error ? { error: r.error } : {}),
});

/**
 * Runs `text` on `session`, whose lease this replica holds; never rejects. With `gate` (a shared store), what the
 * prompt publishes goes through it and every answer of the store about the token reaches it (lease-gate.ts).
 */
export async function runLeased(
  c: LeaseContext,
  id: string,
  session: ServerSession,
  transcript: Transcript | undefined,
  text: string,
  fence?: number,
  gate?: LeaseGate,
): Promise<void> {
  const { store, hub, replica, leaseMs } = c;
  let renewed = performance.now();
  /** The prompt is over: a renewal answered after that says nothing about the next prompt. */
  let over = false;
  const lost = () => {
    if (over) return;
    gate?.lose();
    session.abort();
  };
  const stopHeartbeat = heartbeat(store, id, replica, leaseMs, fence, (held, sentAt) => {
    if (held === false) return lost();
    if (held === undefined) {
      if (!over && performance.now() - renewed >= leaseMs) session.abort();
      return;
    }
    if (over) return;
    renewed = Math.max(renewed, sentAt);
    gate?.confirm(sentAt);
  });
  let lastResult: StoredResult;
  try {
    lastResult = storedResult(await session.prompt(text));
  } catch (error) {
    const code = error instanceof WasmhooksError ? error.code : 'PROMPT_FAILED';
    hub.emit('prompt.failed', { sessionId: id, code, message: messageOf(error) });
    lastResult = { subtype: 'error_during_execution', text: '', turns: 0, durationMs: 0, error: { code, message: messageOf(error) } };
  } finally {
    stopHeartbeat();
    over = true;
  }
  try {
    await transcript?.flush();
    // A prompt whose lease was lost (reported interrupted elsewhere meanwhile) does not overwrite that result.
    if (fence !== undefined) {
      let sentAt = performance.now();
      let ours = (await store.update(id, { lastResult }, fence)) !== false;
      if (ours && gate?.lapsed) {
        // The end is still held (the store answered late): one more answer about the token, sent now.
        sentAt = performance.now();
        ours = await store.renew(id, replica, leaseMs, fence);
      }
      if (!ours) gate?.lose();
      else gate?.confirm(sentAt);
    } else if (await store.renew(id, replica, leaseMs)) await store.update(id, { lastResult });
    // Events never confirmed (dropped): the lease is left to expire, so a sweep reports the prompt interrupted.
    if ((gate?.end() ?? 0) === 0) await store.release(id, replica);
  } catch (error) {
    gate?.end();
    // The lease expires by itself; another replica then reports the prompt as interrupted.
    hub.emit('prompt.failed', { sessionId: id, code: 'STORE_UNAVAILABLE', message: `the result could not be stored: ${messageOf(error)}` });
  }
}
