/** `GET /event` and `GET /global/event`: Server-Sent Events from the hub. */
import type { Context } from 'hono';
import { ApiError } from './errors.js';
import type { EventHub } from './hub.js';
import { sessionIdSchema } from './validate.js';

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

function lastEventId(c: Context): number | undefined {
  const raw = c.req.header('last-event-id') ?? c.req.query('lastEventId');
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw new ApiError('validation', 'Last-Event-ID must be a non-negative integer', 'headers.last-event-id');
  return Number(raw);
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
