/**
 * Node: the requests of one connection are served one at a time, in order.
 * Node's server hands the app every request it parses at once, pipelined ones
 * included, and keeps each answer in memory until the ones before it are
 * sent: a client that pipelined 300 `GET /session/:id/messages` (26 KB) and
 * read nothing made the process build and hold 300 pages of up to 4 MiB
 * (2.1 GB measured; review red15). Deno and Bun serve a connection's next
 * request once the previous answer is written; so does this. A request
 * with `MAX_OPEN` unanswered before it is answered, in its turn, `503`
 * with `Connection: close` without running: its client learns where its
 * requests stopped being served, and nothing after it runs.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { jsonError, type ServeOptions } from './serve-types.js';

/** Unanswered requests one connection may have: the one served and 32 waiting (HTTP clients that pipeline send a few). */
const MAX_OPEN = 33;

interface Turns {
  /** Answers of this connection not yet finished (the one being served, then those waiting). */
  open: number;
  /** Settles once the latest of them has finished. */
  last: Promise<void>;
  /** The latest of them. */
  latest: ServerResponse | undefined;
}

const bySocket = new WeakMap<Socket, Turns>();

/** A request's turn on its connection. */
export interface Turn {
  /** Settles once every answer before this one has finished (sent, or its connection gone); undefined: none is. */
  wait: Promise<void> | undefined;
  /** `MAX_OPEN` are before it: answer 503 and close, without running it. */
  over: boolean;
}

/** Registers `response` as the connection's latest answer and says when it may be served. */
export function turnOf(socket: Socket, response: ServerResponse): Turn {
  let turns = bySocket.get(socket);
  if (turns === undefined) bySocket.set(socket, (turns = { open: 0, last: Promise.resolve(), latest: undefined }));
  const state = turns;
  const turn = { wait: state.open === 0 ? undefined : state.last, over: state.open >= MAX_OPEN };
  state.open++;
  state.latest = response;
  state.last = new Promise<void>((resolve) =>
    response.once('close', () => {
      if (--state.open === 0) state.latest = undefined;
      resolve();
    }),
  );
  return turn;
}

/** The connection's latest request not yet answered, and a promise settled once it and all before it are. */
export function lastOpen(socket: Socket): { response: ServerResponse; finished: Promise<void> } | undefined {
  const turns = bySocket.get(socket);
  return turns?.latest === undefined ? undefined : { response: turns.latest, finished: turns.last };
}

/** The answer of a request that had `MAX_OPEN` unanswered before it on its connection: 503, not run, and the connection closed. */
export function tooManyOpen(errorBody: ServeOptions['errorBody']): Response {
  const response = jsonError(
    503,
    `${MAX_OPEN} requests of this connection are not answered yet: this one was not run; wait for their answers before sending more, or open another connection`,
    errorBody,
  );
  response.headers.set('connection', 'close');
  response.headers.set('retry-after', '1');
  return response;
}
