/** Node: `@hono/node-server`, loaded only when this adapter is picked. */
import type { AddressInfo, Socket } from 'node:net';
import { jsonError, urlOf, type ServeAdapter } from './serve-types.js';

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 413: 'Payload Too Large', 431: 'Request Header Fields Too Large' };

export const serveNode: ServeAdapter = async (fetch, { hostname, port, errorBody }) => {
  const [{ getRequestListener, RequestError }, { createServer }] = await Promise.all([import('@hono/node-server'), import('node:http')]);
  const listener = getRequestListener((request, env) => fetch(request, { destroy: () => env.outgoing.destroy() }), {
    hostname,
    // node-server's own refusals (an invalid Host, a URL it cannot build) as our JSON.
    errorHandler: (error) =>
      error instanceof RequestError
        ? jsonError(400, 'malformed request: the URL or Host header cannot be read', errorBody)
        : jsonError(500, 'internal server error', errorBody),
  });
  // A missing Host reaches the app (the guards let non-browser requests through) instead of Node's bare 400.
  const server = createServer({ requireHostHeader: false }, listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Requests Node's parser refuses never reach the app: answer them in the same JSON shape.
  server.on('clientError', (error: Error & { code?: string }, socket: Socket) => {
    // As Node's own handler: nothing can be written once a response on this connection has started.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || error.code === 'ECONNRESET' || inFlight?.headersSent) return socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const message =
      status === 431 ? 'the request line or headers are too large' : `malformed request (${error.code ?? 'parse error'}): check the method, URL and headers`;
    const body = errorBody ? errorBody(status, message) : JSON.stringify({ error: { code: 'bad_request', message } });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  const address = server.address() as AddressInfo;
  return {
    hostname,
    port: address.port,
    url: urlOf(hostname, address.port),
    close: (graceMs = 1000) =>
      new Promise<void>((resolve) => {
        // close() stops listening and closes idle connections; responses still running (SSE) get graceMs to end.
        server.close(() => resolve());
        server.closeIdleConnections();
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        server.once('close', () => clearTimeout(timer));
      }),
  };
};
