/** `GET /event` and `GET /global/event`: Server-Sent Events from the hub. */
import type { Context } from 'hono';
import { EVENT_ID } from '../store/ids.js';
import { ApiError } from './errors.js';
import type { EventHub } from './hub.js';
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

export function sseHandler(hub: EventHub, envelope: boolean) {
  return (c: Context): Response => {
    const session = c.req.query('session');
    if (session !== undefined && !sessionIdSchema.safeParse(session).success) {
      throw new ApiError('validation', 'session must be a session id', 'query.session');
    }
    const from = lastEventId(c);
    // Disconnects arrive as the body's cancel on every runtime; request.signal is not used
    // because Deno's legacy semantics fire it when a response is delivered.
    const body = hub.open({
      envelope,
      ...(session !== undefined ? { session } : {}),
      ...(from !== undefined ? { lastEventId: from } : {}),
    });
    return new Response(body, { headers: SSE_HEADERS });
  };
}
