/** Bun: `Bun.serve`. */
import { grace, jsonError, urlOf, type Connection, type ServeAdapter } from './serve-types.js';

interface BunServer {
  readonly port: number;
  stop(closeActiveConnections?: boolean): Promise<void> | void;
}
interface BunServe {
  serve(options: {
    hostname: string;
    port: number;
    idleTimeout: number;
    fetch: (request: Request) => Response | Promise<Response>;
    error: (error: unknown) => Response;
  }): BunServer;
}

/** All Bun tells the handler about a connection (it gives no handle on it). */
const BUN_CONNECTION: Connection = { printsBodyErrors: true };

export const serveBun: ServeAdapter = async (fetch, { hostname, port, errorBody }) => {
  const bun = (globalThis as unknown as { Bun: BunServe }).Bun;
  // idleTimeout 0: SSE streams are idle between heartbeats, and Bun's default (10 s) would cut them.
  // Bun gives no handle on a request's connection, so a stalled SSE reader cannot be cut (Connection.destroy is absent;
  // server.timeout(request, s) does not fire while a write is blocked): the hub errors its stream and frees its queue,
  // and Bun keeps the socket (fd and kernel send queue) until the peer reads, then closes it.
  const server = bun.serve({
    hostname,
    port,
    idleTimeout: 0,
    fetch: (request) => fetch(request, BUN_CONNECTION),
    error: () => jsonError(500, 'internal server error', errorBody),
  });
  return {
    hostname,
    port: server.port,
    url: urlOf(hostname, server.port),
    async close(graceMs = 1000) {
      // stop(false) waits for running responses; stop(true) cuts whatever is left after the grace period.
      await Promise.race([server.stop(false), grace(graceMs)]);
      await server.stop(true);
    },
  };
};
