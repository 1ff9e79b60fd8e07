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
    const bundled = url.pathname.endsWith('.ts') ? await bundleOf(url) : url;
    const worker = bundled ? new Worker(bundled, options) : new Worker(fromSource(url), { ...options, eval: true });
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
 * Running from TypeScript sources (tests, tsx) without esbuild's binary: the worker registers tsx
 * before loading the entry (`execArgv: ['--import', 'tsx']` does not take
 * effect for a worker's own entry on Node 20).
 */
function fromSource(url: URL): string {
  return `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
}

const bundles = new Map<string, Promise<URL | undefined>>();

/**
 * Running from TypeScript sources: the entry `url` bundled by esbuild (a dev dependency; packages stay
 * external, as tsup builds dist/), once per process, into node_modules/.cache beside the sources (where
 * those packages resolve), named by its content. A worker that registered tsx and loaded the sources
 * file by file spent about 0.7 s of CPU more on every start, in every test that spawns one. esbuild's
 * binary runs as a child, not through its JS API (which checks the binary synchronously, on the caller's
 * loop), on one core (GOMAXPROCS=1): on two cores its threads made the caller's loop stall longer than
 * tsx's one thread did (hk5's 25 MB load: 100–295 ms, against 156–189 with tsx and 114–196 on one core,
 * beside a busy core). Undefined when the binary is not there: the worker then registers tsx (`fromSource`).
 */
function bundleOf(url: URL): Promise<URL | undefined> {
  let bundle = bundles.get(url.href);
  if (!bundle) {
    bundle = (async () => {
      const { execFile } = await import('node:child_process');
      const { createHash } = await import('node:crypto');
      const { mkdir, rename, writeFile } = await import('node:fs/promises');
      const { fileURLToPath } = await import('node:url');
      const esbuild = fileURLToPath(new URL('../../../node_modules/esbuild/bin/esbuild', url));
      const args = [fileURLToPath(url), '--bundle', '--format=esm', '--platform=node', '--packages=external', '--target=es2022', '--log-level=error'];
      const code = await new Promise<Buffer | undefined>((resolve) =>
        execFile(esbuild, args, { encoding: 'buffer', maxBuffer: 64 * 2 ** 20, env: { ...process.env, GOMAXPROCS: '1' } }, (error, stdout) => resolve(error ? undefined : stdout)),
      );
      if (!code) return undefined;
      const dir = new URL('../../../node_modules/.cache/wasmhooks-workers/', url);
      const name = url.pathname.split('/').pop()!.replace(/\.ts$/, '');
      const file = new URL(`${name}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`, dir);
      await mkdir(dir, { recursive: true });
      // Another process may write the same bytes meanwhile: each writes its own file and renames it over.
      const partial = `${fileURLToPath(file)}.${process.pid}.${Math.random().toString(36).slice(2)}`;
      await writeFile(partial, code);
      await rename(partial, fileURLToPath(file));
      return file;
    })();
    bundles.set(url.href, bundle);
  }
  return bundle;
}
