/**
 * How the engine reaches Extism: the package loaded with the first plugin,
 * a `fetch` that touches the global only when called, a silent logger, and
 * one warm-up build per process.
 */
type ExtismModule = typeof import('@extism/extism');
let extism: Promise<ExtismModule> | undefined;
/**
 * Extism is loaded with the first plugin, not when wasmhooks is imported: its
 * Node build loads `node:wasi`, which prints an ExperimentalWarning.
 */
export const createPlugin: ExtismModule['default'] = async (...args) => (await (extism ??= import('@extism/extism'))).default(...args);

/**
 * Extism reads the global `fetch` (and tests `instanceof Response`) while it
 * builds a plugin unless given its own. On Node the first touch of either
 * global loads undici, ~20-50 ms of a cold start, for a plugin that never
 * fetches (network imports are rerouted to a refusal, see denied.ts).
 */
export const deferredFetch: typeof fetch = (...args) => globalThis.fetch(...args);

const ignore = (): void => undefined;
export const SILENT = { trace: ignore, debug: ignore, info: ignore, warn: ignore, error: ignore, log: ignore } as unknown as Console;

let warm: Promise<void> | undefined;

/**
 * The first Extism plugin of a process takes ~100 ms to build (Extism's own
 * code being compiled), the next ones well under 1 ms. Pay that once, with an
 * empty module, outside any plugin's deadline.
 */
export function warmUp(): Promise<void> {
  warm ??= (async () => {
    const empty = await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    const plugin = await createPlugin(empty, { useWasi: false, logLevel: 'silent', fetch: deferredFetch });
    await plugin.close();
  })().catch(() => undefined);
  return warm;
}

/**
 * Extism runs a host function that is an async function under JSPI and
 * tells it apart by its constructor: so does everything of ours that must
 * agree with it (one test, not three).
 */
export const isAsyncFunction = (fn: object): boolean => fn.constructor.name === 'AsyncFunction';
