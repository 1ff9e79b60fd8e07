/** Deno: `Deno.serve`. */
import { grace, jsonError, urlOf, type ServeAdapter } from './serve-types.js';

interface DenoServer {
  readonly addr: { port: number };
  readonly finished: Promise<void>;
  shutdown(): Promise<void>;
}
interface DenoServe {
  serve(
    options: {
      hostname: string;
      port: number;
      signal: AbortSignal;
      onListen(addr: { port: number }): void;
      onError(error: unknown): Response;
    },
    handler: (request: Request, info: { remoteAddr?: { hostname?: string } }) => Response | Promise<Response>,
  ): DenoServer;
}

export const serveDeno: ServeAdapter = async (fetch, { hostname, port, errorBody }) => {
  const deno = (globalThis as unknown as { Deno: DenoServe }).Deno;
  const controller = new AbortController();
  // Deno.serve binds synchronously (a busy port throws here); onListen only silences its default log line.
  // Deno gives no handle on a request's connection (the handler's info has remoteAddr and completed only), so a
  // stalled SSE reader cannot be cut (Connection.destroy is absent): the hub errors its stream and frees its queue,
  // and Deno keeps the socket (fd and kernel send queue, ~4 MB on loopback) until the peer reads, then closes it.
  const server = deno.serve(
    { hostname, port, signal: controller.signal, onListen: () => {}, onError: () => jsonError(500, 'internal server error', errorBody) },
    (request, info) => {
      const remoteAddress = info.remoteAddr?.hostname;
      return fetch(request, remoteAddress ? { remoteAddress } : undefined);
    },
  );
  return {
    hostname,
    port: server.addr.port,
    url: urlOf(hostname, server.addr.port),
    async close(graceMs = 1000) {
      // shutdown() lets running responses finish (the app has ended its SSE streams); abort() cuts the rest.
      let finished = false;
      const shutdown = server.shutdown().then(() => (finished = true));
      await Promise.race([shutdown, grace(graceMs)]);
      // Aborting a server whose shutdown completes at that moment makes Deno's own abort listener throw
      // BadResource, reported as an uncaught error that would end the process: that one is ignored.
      if (!finished) {
        const ignore = (event: Event) => {
          if ((event as ErrorEvent).error?.name === 'BadResource') event.preventDefault();
        };
        globalThis.addEventListener('error', ignore);
        try {
          controller.abort();
        } finally {
          setTimeout(() => globalThis.removeEventListener('error', ignore), 0);
        }
      }
      // Bounded too: Deno finishes a connection only once its unsent bytes are taken, so a peer that stopped reading
      // (a paused SSE reader, its kernel buffers full) held `close` forever. Its socket goes when the peer reads or leaves.
      await Promise.race([server.finished.catch(() => {}), grace(graceMs)]);
    },
  };
};
