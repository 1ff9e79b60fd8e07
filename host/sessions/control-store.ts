/**
 * Mirrors the control broker's pending requests into the session store, so
 * any replica (or a restarted one) can list them. The store write comes
 * before the event, so a client that reads `control.request` and asks any
 * replica finds it; events keep the broker's order.
 */
import type { ControlSink } from '../server/control.js';
import type { SessionStore } from '../store/types.js';

/** A sink that records requests in `store` before passing them on. */
export function storedSink(sink: ControlSink, store: SessionStore, onError: (error: unknown) => void): ControlSink {
  let chain: Promise<void> = Promise.resolve();
  const inOrder = (write: () => Promise<unknown>, emit: () => void) => {
    chain = chain.then(() => write().catch(onError)).then(emit);
  };
  return {
    request: (request) => inOrder(() => store.putControl(request), () => sink.request(request)),
    resolved: (request) => inOrder(() => store.deleteControl(request.sessionId, request.id), () => sink.resolved(request)),
    cancelled: (request, reason) => inOrder(() => store.deleteControl(request.sessionId, request.id), () => sink.cancelled(request, reason)),
  };
}
