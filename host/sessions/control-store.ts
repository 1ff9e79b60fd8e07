/**
 * Mirrors the control broker's pending requests into the session store, so
 * any replica (or a restarted one) can list them. Events go out at once, in
 * the broker's order; the store write is issued just before the event, so
 * on Redis (one connection, commands in order) a client that reads
 * `control.request` and asks any replica finds the request stored.
 */
import type { ControlSink } from '../server/control.js';
import type { SessionStore } from '../store/types.js';

/** A sink that records requests in `store` before passing them on; `settled()` waits for the writes in flight. */
export function storedSink(sink: ControlSink, store: SessionStore, onError: (error: unknown) => void): ControlSink & { settled(): Promise<void> } {
  const writes = new Set<Promise<unknown>>();
  const write = (p: Promise<unknown>) => {
    const tracked = p.catch(onError).finally(() => writes.delete(tracked));
    writes.add(tracked);
  };
  return {
    request(request) {
      write(store.putControl(request));
      sink.request(request);
    },
    resolved(request) {
      sink.resolved(request);
      write(store.deleteControl(request.sessionId, request.id));
    },
    cancelled(request, reason) {
      sink.cancelled(request, reason);
      write(store.deleteControl(request.sessionId, request.id));
    },
    settled: async () => {
      await Promise.allSettled([...writes]);
    },
  };
}
