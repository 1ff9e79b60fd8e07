/** Node: `@hono/node-server`, loaded only when this adapter is picked. */
import type { AddressInfo } from 'node:net';
import { GRACE_MS, urlOf, type ServeAdapter } from './serve-types.js';

export const serveNode: ServeAdapter = async (fetch, { hostname, port }) => {
  const { serve } = await import('@hono/node-server');
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch, hostname, port }, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  return {
    hostname,
    port: address.port,
    url: urlOf(hostname, address.port),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        // Idle keep-alive sockets go now; SSE streams never end by themselves, so they are cut after the grace.
        if ('closeIdleConnections' in server) server.closeIdleConnections();
        const force = setTimeout(() => {
          if ('closeAllConnections' in server) server.closeAllConnections();
        }, GRACE_MS);
      }),
  };
};
