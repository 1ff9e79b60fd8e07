/** Workers on Deno and Bun: the web-standard `Worker`. */
import type { ThreadAdapter } from './adapter.js';

/**
 * A message that reaches a worker before it listens is lost, and the worker
 * listens only after loading its modules: it says when it is ready, and only
 * then is `init` sent.
 */
const READY = 'wasmhooks:sandbox-worker-ready';

interface WorkerScope {
  onmessage: ((event: MessageEvent) => void) | null;
  postMessage(message: unknown, transfer?: Transferable[]): void;
}

export const adapter: ThreadAdapter = {
  async spawn(url, init, hooks) {
    const worker = new Worker(url, { type: 'module' }) as Worker & { unref?: () => void };
    // An idle sandbox worker must not keep the process alive (Bun has unref;
    // on Deno, close() the sandbox).
    if (!hooks.holdsProcess) worker.unref?.();
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      hooks.onDeath(event.message || 'the worker failed');
    });
    worker.addEventListener('message', (event: MessageEvent) => {
      if (event.data === READY) worker.postMessage(init, hooks.transfer ?? []);
      else hooks.onMessage?.(event.data);
    });
    return {
      terminate: async () => worker.terminate(),
    };
  },
  receive: <T>() =>
    new Promise<T>((resolve) => {
      const scope = globalThis as unknown as WorkerScope;
      scope.onmessage = (event) => {
        scope.onmessage = null;
        resolve(event.data as T);
      };
      scope.postMessage(READY);
    }),
  async reply(message, transfer = []) {
    (globalThis as unknown as WorkerScope).postMessage(message, transfer);
  },
};
