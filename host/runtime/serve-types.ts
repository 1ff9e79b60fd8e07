/** The one interface every runtime's HTTP adapter implements. */

/** What a request asking to switch protocols is told, by the app (guards.ts) and by the Node adapter (which answers it itself). */
export const UPGRADE_REFUSED = 'this server speaks HTTP/1.1 only (no WebSocket, no h2c): send the request without "Connection: upgrade" and "Upgrade"';

/** What the adapter knows about the connection under a request, passed to the handler as its second argument. */
export interface Connection {
  /** The peer's IP address, for per-client caps (`maxSseClientsPerAddress`, `maxSessionsPerAddress`); absent in-process. */
  readonly remoteAddress?: string;
  /** Cuts the connection at once (a stalled SSE reader). Absent where the runtime gives no handle (Deno, Bun). */
  destroy?(): void;
  /**
   * Offers to write `body` straight to the connection instead of reading it
   * as a web stream (Node: no stream machinery per chunk). The adapter calls
   * `attach` once, when the final response (after every middleware) carries
   * this very stream, and from then on never reads the stream; otherwise it
   * reads the body as usual. Absent where the runtime has no faster path.
   */
  direct?(body: ReadableStream<Uint8Array>, attach: (sink: DirectSink) => DirectSource): void;
  /**
   * Answers 200 with `headers` and a body written straight to the connection
   * (Node: the socket; Bun: a `type: "direct"` stream), without a web stream
   * to read: `attach` is called once the connection can take bytes (at once
   * on Node, when the runtime starts the body on Bun). Returns the Response to
   * hand the runtime. Absent where the runtime has no such path (Deno).
   */
  respond?(headers: Readonly<Record<string, string>>, attach: (sink: DirectSink) => DirectSource): Response;
  /**
   * The app is about to read the request's body: a client that asked `Expect: 100-continue` is told
   * to send it now, and not before (so a request refused first, a 401, is answered without its body
   * being asked for). Absent where the runtime answers the expectation itself before the app sees the
   * request (Deno, Bun).
   */
  proceed?(): void;
  /**
   * The runtime prints the reason a response body's stream errors with, stack and all (Bun): a body cut on
   * purpose (a dropped slow SSE reader, an expected event) is errored without a reason there, so nothing is printed.
   */
  readonly printsBodyErrors?: boolean;
}

/** The connection, as an adapter hands it to a body written directly (see `Connection.direct`). */
export interface DirectSink {
  /** Writes bytes after the status and headers; false when the connection's buffer is full (wait for `resume`). */
  write(bytes: Uint8Array): boolean;
  /**
   * The runtime's own writer, where `write` would only forward to it (Node's `ServerResponse`, Bun's direct
   * controller): the hub writes to it with nothing in between, since a tick writes to every client a syscall
   * apart and each object on the way is a cache miss per client. It answers as `write` does (Node), or a number
   * once the bytes are taken, or a promise settled when the connection drained (then `resume`), rejected when
   * it is gone (then `close`) (Bun).
   */
  readonly writer?: RuntimeWriter;
  /** Ends the response once what was written is sent. */
  end(): void;
  /** Cuts the connection at once. */
  destroy(): void;
}

/**
 * What takes an SSE client's bytes: a web stream's sink, a `DirectSink`, or a runtime's own writer of the
 * connection (`DirectSink.writer`). Its answer: true, or the bytes taken, when more may be written at once;
 * false to wait for `DirectSource.resume` (or the stream's next pull); a promise settled when the connection
 * drained, rejected when it is gone.
 */
export interface RuntimeWriter {
  write(bytes: Uint8Array): boolean | number | Promise<unknown>;
}

/** What a body written directly gives back to the adapter. Contract: must not throw. */
export interface DirectSource {
  /** The connection's buffer drained after `write` returned false. */
  resume(): void;
  /** The connection is gone: the peer left, or the response ended or was cut. */
  close(): void;
}

export type FetchHandler = (request: Request, connection?: Connection) => Response | Promise<Response>;

export interface ServeOptions {
  hostname: string;
  /** 0 picks a free port. */
  port: number;
  /**
   * The JSON body of an error answered before the handler runs (a request
   * the runtime's parser refused: oversize headers, an unknown method, bad
   * bytes), or when the handler throws. Each runtime uses it where it can.
   */
  errorBody?: (status: number, message: string) => string;
  /**
   * Time for a request's line and headers to arrive whole, ms (slowloris on
   * headers, or a connection that never sends one): past it Node answers 408
   * and closes. Bun has its own fixed limit (about 10 s) and Deno none; there
   * it is ignored (docs/http-api.md).
   */
  headersTimeoutMs?: number;
  /**
   * Connections open at once (Node: one more is closed as it is accepted).
   * Bun and Deno expose no hook on accepted connections; there it is ignored
   * (docs/http-api.md).
   */
  maxConnections?: number;
  /**
   * Bun: how long a connection may stay idle after a non-stream answer, ms
   * (also bounds writing that answer: Bun's timer is not reset by writes).
   * Node closes idle keep-alive connections after its own 5 s; Deno never.
   */
  idleTimeoutMs?: number;
}

/** A listening server. */
export interface Served {
  readonly hostname: string;
  readonly port: number;
  /** `http://host:port`, with IPv6 hosts in brackets. */
  readonly url: string;
  /**
   * Stops listening; responses still running (SSE streams ended by the app)
   * get `graceMs` to finish, then connections are dropped.
   */
  close(graceMs?: number): Promise<void>;
}

export type ServeAdapter = (fetch: FetchHandler, options: ServeOptions) => Promise<Served>;

export function urlOf(hostname: string, port: number): string {
  const host = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  return `http://${host}:${port}`;
}

/** A JSON error response from `errorBody` (or a minimal one). */
export function jsonError(status: number, message: string, errorBody?: ServeOptions['errorBody']): Response {
  const body = errorBody ? errorBody(status, message) : JSON.stringify({ error: { code: 'internal', message } });
  return new Response(body, { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

/** Resolves after `ms`, without keeping the process alive. */
export function grace(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms) as { unref?: () => void };
    timer.unref?.();
  });
}
