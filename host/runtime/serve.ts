/**
 * `serve(fetch, options)`: listens with the adapter of the runtime this code
 * runs on. The only place that asks which runtime that is.
 *
 * @example
 * const served = await serve(app.fetch, { hostname: '127.0.0.1', port: 0 });
 * console.log(served.url); await served.close();
 */
import type { FetchHandler, ServeOptions, Served } from './serve-types.js';

export type { Connection, FetchHandler, ServeOptions, Served } from './serve-types.js';

export type RuntimeName = 'node' | 'deno' | 'bun';

export function runtimeName(): RuntimeName {
  if ('Deno' in globalThis) return 'deno';
  if ('Bun' in globalThis) return 'bun';
  return 'node';
}

export async function serve(fetch: FetchHandler, options: ServeOptions): Promise<Served> {
  const runtime = runtimeName();
  switch (runtime) {
    case 'deno':
      return (await import('./serve-deno.js')).serveDeno(fetch, options);
    case 'bun':
      return (await import('./serve-bun.js')).serveBun(fetch, options);
    case 'node':
      return (await import('./serve-node.js')).serveNode(fetch, options);
    default: {
      const never: never = runtime;
      throw new Error(`unknown runtime ${String(never)}`);
    }
  }
}
