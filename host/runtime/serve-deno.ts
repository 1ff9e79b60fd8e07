/** Deno: `Deno.serve`. */
import { urlOf, type FetchHandler, type ServeAdapter } from './serve-types.js';

interface DenoServer {
  readonly addr: { port: number };
  readonly finished: Promise<void>;
  shutdown(): Promise<void>;
}
interface DenoServe {
  serve(
    options: { hostname: string; port: number; signal: AbortSignal; onListen(addr: { port: number }): void },
    handler: FetchHandler,
  ): DenoServer;
}

export const serveDeno: ServeAdapter = async (fetch, { hostname, port }) => {
  const deno = (globalThis as unknown as { Deno: DenoServe }).Deno;
  const controller = new AbortController();
  const server = await new Promise<DenoServer>((resolve, reject) => {
    try {
      const s: DenoServer = deno.serve({ hostname, port, signal: controller.signal, onListen: () => resolve(s) }, fetch);
    } catch (error) {
      reject(error);
    }
  });
  return {
    hostname,
    port: server.addr.port,
    url: urlOf(hostname, server.addr.port),
    async close() {
      // abort() closes the listener and open connections; shutdown() alone waits for SSE streams to end.
      controller.abort();
      await server.finished;
    },
  };
};
