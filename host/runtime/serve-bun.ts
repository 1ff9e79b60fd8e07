/** Bun: `Bun.serve`. */
import { GRACE_MS, urlOf, type FetchHandler, type ServeAdapter } from './serve-types.js';

interface BunServer {
  readonly port: number;
  stop(closeActiveConnections?: boolean): Promise<void> | void;
}
interface BunServe {
  serve(options: { hostname: string; port: number; idleTimeout: number; fetch: FetchHandler }): BunServer;
}

export const serveBun: ServeAdapter = async (fetch, { hostname, port }) => {
  const bun = (globalThis as unknown as { Bun: BunServe }).Bun;
  // idleTimeout 0: SSE streams are idle between heartbeats, and Bun's default (10 s) would cut them.
  const server = bun.serve({ hostname, port, idleTimeout: 0, fetch });
  return {
    hostname,
    port: server.port,
    url: urlOf(hostname, server.port),
    async close() {
      // stop() lets responses in flight finish but waits for SSE streams forever; stop(true) after the grace cuts them.
      const force = setTimeout(() => void server.stop(true), GRACE_MS);
      await server.stop(false);
      clearTimeout(force);
    },
  };
};
