/** Deno: `Deno.serve`. */
import { GRACE_MS, urlOf, type FetchHandler, type ServeAdapter } from './serve-types.js';

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
  // Deno.serve binds synchronously (a busy port throws here); onListen only silences its default log line.
  const server = deno.serve({ hostname, port, signal: controller.signal, onListen: () => {} }, fetch);
  return {
    hostname,
    port: server.addr.port,
    url: urlOf(hostname, server.addr.port),
    async close() {
      // shutdown() lets responses in flight finish but waits for SSE streams forever; abort() after the grace cuts them.
      const force = setTimeout(() => controller.abort(), GRACE_MS);
      await Promise.race([server.shutdown(), server.finished]);
      clearTimeout(force);
      await server.finished;
    },
  };
};
