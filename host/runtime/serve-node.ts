/** Node: `@hono/node-server`, loaded only when this adapter is picked. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { lastOpen, tooManyOpen, turnOf } from './node-turns.js';
import { jsonError, UPGRADE_REFUSED, urlOf, type DirectSink, type DirectSource, type ServeAdapter } from './serve-types.js';

interface Offer {
  body: ReadableStream<Uint8Array>;
  attach: (sink: DirectSink) => DirectSource;
}

/** node-server writes nothing for a bodiless response with this header (its contract for handlers that wrote `outgoing`). */
const ALREADY_SENT = 'x-hono-already-sent';
const ALREADY_SENT_RESPONSE = () => new Response(null, { headers: { [ALREADY_SENT]: '1' } });

/**
 * Status, headers and a body written to `outgoing` by the app itself
 * (`Connection.respond`, and `direct` below); node-server is told the
 * response is sent.
 */
function respondDirect(
  outgoing: ServerResponse,
  status: number,
  headers: Record<string, string | string[]>,
  attach: (sink: DirectSink) => DirectSource,
): Response {
  outgoing.writeHead(status, headers);
  const source = attach({
    write: (bytes) => outgoing.write(bytes),
    writer: outgoing,
    end: () => outgoing.end(),
    destroy: () => outgoing.destroy(),
  });
  // The peer sees the headers at once, with the first bytes when the body wrote some (one packet).
  if (!outgoing.headersSent) outgoing.flushHeaders();
  outgoing.on('drain', () => source.resume());
  outgoing.on('close', () => source.close());
  // A failed write ends this stream only (an 'error' nobody listens to would end the process).
  outgoing.on('error', () => source.close());
  // A peer that left while the handler ran (an async middleware) fires no 'close' now: without this its client would linger.
  if (outgoing.destroyed) source.close();
  return ALREADY_SENT_RESPONSE();
}

/**
 * A body offered for direct writing (`Connection.direct`, the SSE streams
 * through the app's middleware): when the final response still carries it,
 * it is written as `respond` writes. A response whose body was replaced is
 * left to node-server.
 */
function writeDirect(response: Response, offer: Offer, outgoing: ServerResponse): Response {
  if (response.body !== offer.body) return response;
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  return respondDirect(outgoing, response.status, headers, offer.attach);
}

/** The response being served on a connection, if any (Node's own field, as its default clientError handler reads it). */
const inFlight = (socket: Socket) => (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;

/** Sockets whose refusal already waits for the request before it. */
const deferred = new WeakSet<Socket>();

/**
 * Runs `refuse` (an answer written straight to the socket, which ends it) once the requests before the refused bytes
 * have their answers. Bytes that do not parse, or a CONNECT, after a request that did (pipelined, or sent after
 * `Connection: close`): that request is running, and may already have acted (a session created, a tool approved).
 * Refusing at once, as Node does, put the refusal in the place of its answer and closed the socket under it (review
 * red15); its answer goes first, then the refusal (none after a `Connection: close` answer, whose socket Node ends),
 * as on Deno and Bun. An error inside that request's own body (a broken chunk, a trailer line that is no field) is
 * its refusal, at once: the route would wait on a body that never ends.
 */
function afterInFlight(socket: Socket, refuse: () => void): void {
  // As Node's own handler: nothing can be written once a response on this connection has started.
  if (inFlight(socket)?.headersSent === true) return void socket.destroy();
  const open = lastOpen(socket);
  if (open?.response.req?.complete !== true) return refuse();
  if (deferred.has(socket)) return;
  deferred.add(socket);
  void open.finished.then(() => (socket.writable ? refuse() : socket.destroy()));
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 405: 'Method Not Allowed', 413: 'Payload Too Large', 431: 'Request Header Fields Too Large' };

export const serveNode: ServeAdapter = async (fetch, { hostname, port, errorBody, headersTimeoutMs = 60_000, maxConnections }) => {
  const [{ getRequestListener, RequestError }, { createServer }] = await Promise.all([import('@hono/node-server'), import('node:http')]);
  // Requests whose client waits for `100 Continue` before sending the body (see 'checkContinue' below).
  const awaiting = new WeakSet<IncomingMessage>();
  /** One request, once its turn came (node-turns.ts). */
  const serve = (request: Request, incoming: IncomingMessage, outgoing: ServerResponse): Response | Promise<Response> => {
    let offer: Offer | undefined;
    const answer = fetch(request, {
      ...(incoming.socket.remoteAddress ? { remoteAddress: incoming.socket.remoteAddress } : {}),
      proceed: () => {
        if (awaiting.delete(incoming) && !outgoing.headersSent) outgoing.writeContinue();
      },
      destroy: () => outgoing.destroy(),
      direct: (body, attach) => (offer = { body, attach }),
      respond: (headers, attach) => respondDirect(outgoing, 200, { ...headers }, attach),
    });
    // The offer is let go once answered: the hub keeps `destroy` for the connection's life, and with it this scope,
    // which would otherwise hold the unread web stream of every SSE connection.
    const answered = (response: Response) => {
      const taken = offer;
      offer = undefined;
      return taken ? writeDirect(response, taken, outgoing) : response;
    };
    return answer instanceof Promise ? answer.then(answered) : answered(answer);
  };
  const listener = getRequestListener((request, env) => {
    // An HTTP/1 server (createServer below): never node-server's HTTP/2 response.
    const outgoing = env.outgoing as ServerResponse;
    const incoming = env.incoming as IncomingMessage;
    // A connection's requests are served one at a time, in order, as on Deno and Bun (node-turns.ts).
    const { wait, over } = turnOf(incoming.socket, outgoing);
    const run = over ? () => tooManyOpen(errorBody) : () => serve(request, incoming, outgoing);
    return wait === undefined ? run() : wait.then(run);
  }, {
    hostname,
    // node-server's own refusals (an invalid Host, a URL it cannot build) as our JSON.
    errorHandler: (error) =>
      error instanceof RequestError
        ? jsonError(400, 'malformed request: the URL or Host header cannot be read', errorBody)
        : jsonError(500, 'internal server error', errorBody),
  });
  // A missing Host reaches the app (the guards let non-browser requests through) instead of Node's bare 400.
  // Headers sent slowly (or never) are cut after headersTimeoutMs; Node checks its connections every
  // connectionsCheckingInterval (30 s by default, which would let a 10 s limit run to 40 s).
  const server = createServer(
    {
      requireHostHeader: false,
      headersTimeout: headersTimeoutMs,
      requestTimeout: Math.max(300_000, headersTimeoutMs),
      connectionsCheckingInterval: Math.min(1000, headersTimeoutMs),
    },
    listener,
  );
  // `Expect: 100-continue`: Node answers 100 at once unless this event is listened to, i.e. before the app has
  // checked anything (the token): the client then sends a body only to be refused. The app says when it reads.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    awaiting.add(request);
    void listener(request, response);
  });
  // Past it Node closes each new socket as it is accepted (idle keep-alive and slow connections cannot pile up).
  if (maxConnections !== undefined) server.maxConnections = maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Requests Node's parser refuses never reach the app: answer them in the same JSON shape.
  server.on('clientError', (error: Error & { code?: string }, socket: Socket) => {
    if (!socket.writable || error.code === 'ECONNRESET' || inFlight(socket)?.headersSent) return socket.destroy();
    // Only the parser's own errors wait for the request before them; a request timeout is about that request itself.
    const answer = () => answerRaw(socket, ...clientErrorAnswer(error));
    if (error.code?.startsWith('HPE_') === true) afterInFlight(socket, answer);
    else answer();
  });
  // A request asking to switch protocols never reaches the request listener either, and Node's parser reads nothing
  // after it: the requests pipelined behind it stalled and the socket stayed open. Refused as the app refuses it.
  server.on('upgrade', (_request: unknown, socket: Socket) => afterInFlight(socket, () => answerRaw(socket, 400, UPGRADE_REFUSED)));
  // CONNECT (a proxy's method) never reaches the request listener: without this Node drops the socket unanswered.
  server.on('connect', (_request: unknown, socket: Socket) => afterInFlight(socket, () => answerRaw(socket, 405, 'CONNECT is not served here: this is not a proxy')));
  function clientErrorAnswer(error: Error & { code?: string }): [number, string] {
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const message =
      status === 431
        ? 'the request line or headers are too large'
        : status === 408
          ? `the request line and headers did not arrive within ${headersTimeoutMs} ms; send them at once`
          : `malformed request (${error.code ?? 'parse error'}): check the method, URL and headers`;
    return [status, message];
  }
  function answerRaw(socket: Socket, status: number, message: string): void {
    const body = errorBody ? errorBody(status, message) : JSON.stringify({ error: { code: 'bad_request', message } });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
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
