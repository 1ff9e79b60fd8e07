/**
 * The one place that knows workers differ per runtime: Node has
 * `node:worker_threads`, Deno and Bun the web-standard `Worker`. Both sides
 * (host and worker) pick their adapter with the same capability check.
 */
import type { ThreadAdapter } from './adapter.js';

export type { ThreadAdapter, WorkerHandle } from './adapter.js';


export function loadAdapter(): Promise<ThreadAdapter> {
  return typeof (globalThis as { Worker?: unknown }).Worker === 'function'
    ? import('./web-worker.js').then((m) => m.adapter)
    : import('./node-thread.js').then((m) => m.adapter);
}

/** A worker entry: the built `.js` beside the bundle, or the `.ts` source under tsx/vitest. */
export function workerUrl(entry: 'sandbox-worker' | 'instrument-worker'): URL {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./${entry}${ext}`, import.meta.url);
}
