// Shared test helpers: JSON requests through app.request(), and reading SSE frames.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { WasmhooksServer } from '../../host/server/app.js';

export async function call(
  server: WasmhooksServer,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any }> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
  }
  const res = await server.app.request(path, init);
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** Reads SSE messages from a response body until `until` returns true. */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  until: (messages: EventSourceMessage[]) => boolean,
  timeoutMs = 5000,
): Promise<EventSourceMessage[]> {
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (m) => messages.push(m) });
  const reader = body.pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>).getReader();
  const timer = setTimeout(() => void reader.cancel(new Error('timeout')), timeoutMs);
  try {
    while (!until(messages)) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(value);
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
  return messages;
}

export const types = (messages: EventSourceMessage[]) => messages.map((m) => JSON.parse(m.data).type as string);

export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
