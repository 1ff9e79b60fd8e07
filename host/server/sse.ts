/** `GET /event` and `GET /global/event`: Server-Sent Events from the hub. */
import type { Context } from 'hono';
import type { Connection } from '../runtime/serve-types.js';
import { EVENT_ID } from '../store/ids.js';
import { ApiError } from './errors.js';
import type { EventHub } from './hub.js';
import type { StreamFormat } from './ring.js';
import { sessionIdSchema } from './validate.js';

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

function lastEventId(c: Context): string | undefined {
  const raw = c.req.header('last-event-id') ?? c.req.query('lastEventId');
  if (raw === undefined || raw === '') return undefined;
  // Ids of another format (a bare counter from an older server) are valid requests: they get replay.gap.
  if (!EVENT_ID.test(raw) && !/^\d{1,15}$/.test(raw)) {
    throw new ApiError('validation', 'Last-Event-ID must be an event id as sent in `id:` (<epoch>.<position>)', 'headers.last-event-id');
  }
  return raw;
}

/** `/global/event?format=wasmhooks|reference` picks the envelope; the server option is the default. */
function globalFormat(c: Context, fallback: 'wasmhooks' | 'reference'): StreamFormat {
  const raw = c.req.query('format') ?? fallback;
  if (raw === 'wasmhooks') return 'global';
  if (raw === 'reference') return 'reference';
  throw new ApiError('validation', 'format must be "wasmhooks" or "reference"', 'query.format');
}

export function sseHandler(hub: EventHub, global: false | { format: 'wasmhooks' | 'reference' }) {
  return (c: Context): Response => {
    const session = c.req.query('session');
    if (session !== undefined && !sessionIdSchema.safeParse(session).success) {
      throw new ApiError('validation', 'session must be a session id', 'query.session');
    }
    const from = lastEventId(c);
    const format = global ? globalFormat(c, global.format) : 'plain';
    // HEAD is answered from this GET route with the body thrown away: no stream to open (nobody would read it).
    if (c.req.raw.method === 'HEAD') return new Response(null, { headers: SSE_HEADERS });
    // Disconnects arrive as the body's cancel (or the direct connection's close) on every runtime;
    // request.signal is not used because Deno's legacy semantics fire it when a response is delivered.
    const connection = c.env as Partial<Connection> | undefined;
    const destroy = connection?.destroy;
    const direct = connection?.direct;
    const body = hub.open({
      format,
      ...(session !== undefined ? { session } : {}),
      ...(from !== undefined ? { lastEventId: from } : {}),
      ...(typeof destroy === 'function' ? { destroy } : {}),
      ...(typeof direct === 'function' ? { direct } : {}),
      ...(connection?.printsBodyErrors === true ? { quiet: true } : {}),
    });
    return new Response(body, { headers: SSE_HEADERS });
  };
}
