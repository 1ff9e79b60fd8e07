/**
 * Node: the requests of one connection are served one at a time, in order.
 * Node's server hands the app every request it parses at once, pipelined ones
 * included, and keeps each answer in memory until the ones before it are
 * sent: a client that pipelined 300 `GET /session/:id/messages` (26 KB) and
 * read nothing made the process build and hold 300 pages of up to 4 MiB
 * (2.1 GB measured; review red15). Deno and Bun serve a connection's next
 * request once the previous answer is written; so does this. A request
 * with more than `MAX_WAITING` before it is answered, in its turn, `503`
 * with `Connection: close` without running: its client learns where its
 * requests stopped being served, and nothing after it runs.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { jsonError, type ServeOptions } from './serve-types.js';

/** Requests one connection may have waiting for their turn; HTTP clients that pipeline send a few. */
const MAX_WAITING = 32;

interface Turns {
  /** Answers of this connection not yet finished (the one being served, then those waiting). */
  open: number;
  /** Settles once the latest of them has finished. */
  last: Promise<void>;
}

const bySocket = new WeakMap<Socket, Turns>();

/** A request's turn on its connection. */
export interface Turn {
  /** Settles once every answer before this one has finished (sent, or its connection gone); undefined: none is. */
  wait: Promise<void> | undefined;
  /** More than `MAX_WAITING` are before it: answer 503 and close, without running it. */
  over: boolean;
}

/** Registers `response` as the connection's latest answer and says when it may be served. */
export function turnOf(socket: Socket, response: ServerResponse): Turn {
  let turns = bySocket.get(socket);
  if (turns === undefined) bySocket.set(socket, (turns = { open: 0, last: Promise.resolve() }));
  const state = turns;
  const turn = { wait: state.open === 0 ? undefined : state.last, over: state.open > MAX_WAITING };
  state.open++;
  state.last = new Promise<void>((resolve) =>
    response.once('close', () => {
      state.open--;
      resolve();
    }),
  );
  return turn;
}

/** The answer of a request that had too many before it. */
export function tooManyWaiting(errorBody: ServeOptions['errorBody']): Response {
  const response = jsonError(
    503,
    `more than ${MAX_WAITING} requests were sent on this connection before their answers: this one was not run; wait for answers before sending more, or open another connection`,
    errorBody,
  );
  response.headers.set('connection', 'close');
  response.headers.set('retry-after', '1');
  return response;
}
