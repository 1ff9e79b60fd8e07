/** Node: `@hono/node-server`, loaded only when this adapter is picked. */
import type { AddressInfo } from 'node:net';
import { urlOf, type ServeAdapter } from './serve-types.js';

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
        server.close(() => resolve());
        // SSE streams never end by themselves; close() alone would wait for them.
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
};
