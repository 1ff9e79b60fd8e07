/**
 * Workers on Node: `node:worker_threads`, imported only when used so the core
 * bundle has no static Node-only import.
 */
import type { WorkerInit } from './channel.js';
import type { ThreadAdapter } from './adapter.js';

export const adapter: ThreadAdapter = {
  async spawn(url, init, onDeath) {
    const { Worker } = await import('node:worker_threads');
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
  async receive() {
    const { workerData } = await import('node:worker_threads');
    return workerData as WorkerInit;
  },
};

/**
 * Running from TypeScript sources (tests, tsx): the worker registers tsx
 * before loading the entry (`execArgv: ['--import', 'tsx']` does not take
 * effect for a worker's own entry on Node 20).
 */
function fromSource(url: URL): string {
  return `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
}
