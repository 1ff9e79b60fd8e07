/** Workers on Node: `node:worker_threads`. */
import { Worker, workerData } from 'node:worker_threads';
import type { WorkerInit } from './channel.js';
import type { ThreadAdapter } from './thread.js';

export const adapter: ThreadAdapter = {
  spawn(url, init, onDeath) {
    const options = {
      workerData: init,
      // Extism imports node:wasi, which warns once per worker otherwise.
      execArgv: ['--disable-warning=ExperimentalWarning'],
      // The main thread's stack size, not the worker default of 4 MB: runaway
      // recursion then overflows as soon (and as cheaply) as it does in-thread.
      resourceLimits: { stackSizeMb: 1 },
    };
    const worker = url.pathname.endsWith('.ts')
      ? new Worker(fromSource(url), { ...options, eval: true })
      : new Worker(url, options);
    worker.unref();
    worker.on('error', (error) => onDeath(error.message));
    worker.on('exit', (code) => onDeath(`the worker exited (code ${code})`));
    return {
      terminate: async () => {
        await worker.terminate();
      },
    };
  },
  receive: async () => workerData as WorkerInit,
};

/**
 * Running from TypeScript sources (tests, tsx): the worker registers tsx
 * before loading the entry (`execArgv: ['--import', 'tsx']` does not take
 * effect for a worker's own entry on Node 20).
 */
function fromSource(url: URL): string {
  return `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
}
