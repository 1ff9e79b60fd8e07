/** Workers on Deno and Bun: the web-standard `Worker`. */
import type { WorkerInit } from './channel.js';
import type { ThreadAdapter } from './adapter.js';

/**
 * A message that reaches a worker before it listens is lost, and the worker
 * listens only after loading its modules: it says when it is ready, and only
 * then is `init` sent.
 */
const READY = 'wasmhooks:sandbox-worker-ready';

interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerInit>) => void) | null;
  postMessage(message: unknown): void;
}

export const adapter: ThreadAdapter = {
  async spawn(url, init, onDeath) {
    const worker = new Worker(url, { type: 'module' }) as Worker & { unref?: () => void };
    // An idle sandbox worker must not keep the process alive (Bun has unref;
    // on Deno, close() the sandbox).
    worker.unref?.();
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      onDeath(event.message || 'the worker failed');
    });
    const onReady = (event: MessageEvent): void => {
      if (event.data !== READY) return;
      worker.removeEventListener('message', onReady);
      worker.postMessage(init);
    };
    worker.addEventListener('message', onReady);
    return {
      terminate: async () => worker.terminate(),
    };
  },
  receive: () =>
    new Promise((resolve) => {
      const scope = globalThis as unknown as WorkerScope;
      scope.onmessage = (event) => {
        scope.onmessage = null;
        resolve(event.data);
      };
      scope.postMessage(READY);
    }),
};
