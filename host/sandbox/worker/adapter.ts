/** What a runtime's worker adapter provides (node-thread.ts, web-worker.ts); thread.ts picks one. */

export interface WorkerHandle {
  /** Stop the worker at once, whatever it is running. */
  terminate(): Promise<void>;
}

/** How the host watches a worker it spawns. */
interface SpawnHooks {
  /** Fires if the worker errors or exits. */
  onDeath: (reason: string) => void;
  /** A message the worker sent with `reply`. */
  onMessage?: (message: unknown) => void;
  /**
   * Keep the process alive while the worker runs (a load someone awaits). A
   * sandbox worker is idle most of its life and must not hold the process.
   */
  holdsProcess?: boolean;
  /** Buffers of `init` moved to the worker rather than copied (a large module's bytes: a copy held the thread). */
  transfer?: ArrayBuffer[];
}

export interface ThreadAdapter {
  /** Host side: start `url` and hand it `init`. */
  spawn(url: URL, init: unknown, hooks: SpawnHooks): Promise<WorkerHandle>;
  /** Worker side: the `init` the host sent. */
  receive<T>(): Promise<T>;
  /** Worker side: send `message` to the host's `onMessage`, moving `transfer`'s buffers rather than copying them. */
  reply(message: unknown, transfer?: ArrayBuffer[]): Promise<void>;
}
