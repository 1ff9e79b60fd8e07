/** Workers on Deno and Bun: the web-standard `Worker`. */
import type { WorkerInit } from './channel.js';
import type { ThreadAdapter } from './thread.js';

interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerInit>) => void) | null;
}

export const adapter: ThreadAdapter = {
  async spawn(url, init, onDeath) {
    const worker = new Worker(url, { type: 'module' });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      onDeath(event.message || 'the worker failed');
    });
    worker.postMessage(init);
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
    }),
};
