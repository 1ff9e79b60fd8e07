/**
 * The background duties of one replica: answering calls forwarded by other
 * replicas, and sweeping for prompts whose replica died (every half lease).
 * A sweep that fails (the store is down) is retried at the next tick.
 */
import type { EventHub } from '../server/hub.js';
import type { SessionStore } from '../store/types.js';
import { ReplicaCalls, type ReplicaCall } from './calls.js';
import { sweepInterrupted } from './interrupted.js';

export interface ReplicaDuties {
  readonly calls: ReplicaCalls;
  /** Resolves once this replica listens for forwarded calls. */
  readonly ready: Promise<void>;
  /** One sweep now (tests, and the start). */
  sweep(): Promise<number>;
  stop(): void;
}

export function replicaDuties(
  store: SessionStore,
  hub: EventHub,
  replica: string,
  leaseMs: number,
  handle: (call: ReplicaCall) => Promise<unknown>,
  runsHere?: (id: string) => boolean,
): ReplicaDuties {
  const calls = new ReplicaCalls(store, replica, handle);
  let sweeping: Promise<number> | undefined;
  const sweep = () => (sweeping ??= sweepInterrupted(store, hub, runsHere).finally(() => (sweeping = undefined)));
  const timer = setInterval(() => void sweep().catch(() => {}), Math.max(50, Math.floor(leaseMs / 2)));
  // Never keeps a process alive by itself.
  (timer as { unref?: () => void }).unref?.();
  const ready = calls.start().then(
    () => void sweep().catch(() => {}),
    () => {},
  );
  return {
    calls,
    ready,
    sweep,
    stop() {
      clearInterval(timer);
      calls.stop();
    },
  };
}
