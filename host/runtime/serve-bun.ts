/** Bun: `Bun.serve`. */
import { grace, jsonError, urlOf, type Connection, type DirectSink, type DirectSource, type ServeAdapter } from './serve-types.js';

interface BunServer {
  readonly port: number;
  stop(closeActiveConnections?: boolean): Promise<void> | void;
  /** The idle limit of this request's connection, s (0: none); it holds for the connection until set again. */
  timeout(request: Request, seconds: number): void;
  requestIP(request: Request): { address: string } | null;
}
interface BunServe {
  serve(options: {
    hostname: string;
    port: number;
    idleTimeout: number;
    fetch: (request: Request, server: BunServer) => Response | Promise<Response>;
    error: (error: unknown) => Response;
  }): BunServer;
}

/** Bun's controller of a `type: "direct"` stream: bytes go to the connection's buffer, no queue, no pull per chunk. */
interface DirectController {
  /** A number once taken; a promise, settled when the connection drained, when the connection's buffer is full. */
  write(bytes: Uint8Array): number | Promise<number>;
  /** Ends the body cleanly; a truthy reason would be printed with a stack. */
  close(): void;
}

/** Where a body goes whose peer left before it started. */
const GONE: DirectSink = { write: () => true, end: () => {}, destroy: () => {} };

/**
 * The connection of a direct body: the controller's writes, and the pull's
 * promise (see `directBody`). An instance with its methods on the prototype,
 * not closures; the hub writes to the controller itself (`writer`), whose
 * answers `write` translates for other callers.
 */
class DirectBodySink implements DirectSink {
  source: DirectSource | undefined;

  constructor(
    readonly writer: DirectController,
    private readonly resolve: () => void,
    private readonly reject: (reason: undefined) => void,
  ) {}

  write(bytes: Uint8Array): boolean {
    const taken = this.writer.write(bytes);
    if (typeof taken === 'number') return true;
    taken.then(
      () => this.source?.resume(),
      () => this.source?.close(),
    );
    return false;
  }

  end(): void {
    this.writer.close();
    this.resolve();
  }

  destroy(): void {
    this.reject(undefined);
  }
}

/**
 * A body the app writes itself (`Connection.respond`): Bun calls `pull` once
 * when it starts the response and ends the body when the promise `pull`
 * returned settles: resolved by `end`, rejected by `destroy` (with no
 * reason: Bun then cuts the connection without printing anything, the peer
 * sees a reset, as a destroyed Node socket). The peer leaving is `cancel`.
 */
function directBody(attach: (sink: DirectSink) => DirectSource): ReadableStream<Uint8Array> {
  let source: DirectSource | undefined;
  const underlying = {
    type: 'direct',
    pull: (controller: DirectController) =>
      new Promise<void>((resolve, reject) => {
        const sink = new DirectBodySink(controller, resolve, reject);
        source = sink.source = attach(sink);
      }),
    // The peer left before Bun started the body: the client is attached to nothing and let go at once.
    cancel: () => (source ?? attach(GONE)).close(),
  };
  // Bun's own stream type, which the DOM typings do not know.
  return new ReadableStream(underlying as unknown as UnderlyingDefaultSource<Uint8Array>);
}

/** `Connection.respond` and `Connection.direct` on Bun: a `type: "direct"` body instead of a web stream Bun pulls chunk by chunk. */
function connection(remoteAddress: string | undefined): { connection: Connection; answered: (response: Response) => Response; streaming: () => boolean } {
  let offer: { body: ReadableStream<Uint8Array>; attach: (sink: DirectSink) => DirectSource } | undefined;
  let streaming = false;
  return {
    connection: {
      ...(remoteAddress ? { remoteAddress } : {}),
      // Bun prints the reason a web-stream body errors with (the stack of a dropped slow reader): errored without one.
      printsBodyErrors: true,
      direct: (body, attach) => (offer = { body, attach }),
      respond: (headers, attach) => ((streaming = true), new Response(directBody(attach), { headers })),
    },
    // The offered body, still the final response's after every middleware, is written directly; a replaced one is read as usual.
    answered: (response) => {
      const taken = offer;
      offer = undefined;
      if (!taken || response.body !== taken.body) return response;
      streaming = true;
      return new Response(directBody(taken.attach), { status: response.status, headers: response.headers });
    },
    streaming: () => streaming,
  };
}


export const serveBun: ServeAdapter = async (fetch, { hostname, port, errorBody, idleTimeoutMs = 30_000 }) => {
  // How long a connection may stay idle after a non-stream answer, s. Bun's idle timer runs from when it is set and is
  // not reset by writes, so this also bounds writing that answer. Without it an idle keep-alive connection was held
  // forever (`idleTimeout: 0`, which SSE streams and long requests need).
  const idleAfterAnswer = Math.max(1, Math.ceil(idleTimeoutMs / 1000));
  const bun = (globalThis as unknown as { Bun: BunServe }).Bun;
  // idleTimeout 0: SSE streams are idle between heartbeats, and Bun's default (10 s) would cut them.
  // Bun gives no handle on a request's connection (Connection.destroy is absent; server.timeout(request, s) does not fire
  // while a write is blocked), but a body written directly is cut by rejecting its pull (see directBody).
  const server = bun.serve({
    hostname,
    port,
    idleTimeout: 0,
    fetch: (request, self) => {
      // No idle limit while the app works on the request (a prompt may wait minutes) or streams it; one once it is answered.
      self.timeout(request, 0);
      const { connection: conn, answered, streaming } = connection(self.requestIP(request)?.address);
      const settle = (response: Response) => {
        const final = answered(response);
        if (!streaming()) self.timeout(request, idleAfterAnswer);
        return final;
      };
      const answer = fetch(request, conn);
      // An app that rejects (Bun then answers 500 through `error`) still gets the idle limit back on its connection.
      const failed = (error: unknown) => {
        self.timeout(request, idleAfterAnswer);
        throw error;
      };
      return answer instanceof Promise ? answer.then(settle, failed) : settle(answer);
    },
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
