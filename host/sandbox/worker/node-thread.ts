/**
 * Workers on Node: `node:worker_threads`, imported only when used so the core
 * bundle has no static Node-only import.
 */
import type { ThreadAdapter } from './adapter.js';

export const adapter: ThreadAdapter = {
  async spawn(url, init, hooks) {
    const { Worker } = await import('node:worker_threads');
    const options = {
      workerData: init,
      transferList: hooks.transfer ?? [],
      // Extism imports node:wasi, which warns once per worker otherwise.
      execArgv: ['--disable-warning=ExperimentalWarning'],
      // The main thread's stack size, not the worker default of 4 MB: runaway
      // recursion then overflows as soon (and as cheaply) as it does in-thread.
      resourceLimits: { stackSizeMb: 1 },
    };
    const worker = url.pathname.endsWith('.ts')
      ? new Worker(fromSource(url), { ...options, eval: true })
      : new Worker(url, options);
    if (!hooks.holdsProcess) worker.unref();
    worker.on('error', (error) => hooks.onDeath(error.message));
    worker.on('exit', (code) => hooks.onDeath(`the worker exited (code ${code})`));
    const { onMessage } = hooks;
    if (onMessage) worker.on('message', (message: unknown) => onMessage(message));
    return {
      terminate: async () => {
        await worker.terminate();
      },
    };
  },
  async receive<T>() {
    const { workerData } = await import('node:worker_threads');
    return workerData as T;
  },
  async reply(message, transfer = []) {
    const { parentPort } = await import('node:worker_threads');
    parentPort?.postMessage(message, transfer);
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
