/** What a runtime's worker adapter provides (node-thread.ts, web-worker.ts); thread.ts picks one. */
import type { WorkerInit } from './channel.js';

export interface WorkerHandle {
  /** Stop the worker at once, whatever it is running. */
  terminate(): Promise<void>;
}

export interface ThreadAdapter {
  /** Host side: start `url` and hand it `init`; `onDeath` fires if it errors or exits. */
  spawn(url: URL, init: WorkerInit, onDeath: (reason: string) => void): Promise<WorkerHandle>;
  /** Worker side: the `init` the host sent. */
  receive(): Promise<WorkerInit>;
}
