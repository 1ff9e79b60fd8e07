/**
 * The one place that knows workers differ per runtime: Node has
 * `node:worker_threads`, Deno and Bun the web-standard `Worker`. Both sides
 * (host and worker) pick their adapter with the same capability check.
 */
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

export function loadAdapter(): Promise<ThreadAdapter> {
  return typeof (globalThis as { Worker?: unknown }).Worker === 'function'
    ? import('./web-worker.js').then((m) => m.adapter)
    : import('./node-thread.js').then((m) => m.adapter);
}

/** The worker entry: the built `.js` beside the bundle, or the `.ts` source under tsx/vitest. */
export function workerUrl(): URL {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./sandbox-worker${ext}`, import.meta.url);
}
