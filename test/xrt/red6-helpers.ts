// Shared by the server scenario files (server-red3, server-red6*.xrt.ts): a server on a free port, raw requests, error bodies.
import { z } from 'zod';
import * as wasmhooks from '../../dist/index.js';
import { createServer } from '../../dist/server.js';
import { sseMessages, textReader } from '../fixtures/sse-messages.ts';

export type Server = ReturnType<typeof createServer>;

export function makeHost() {
  const model = wasmhooks.scriptedModel({ rules: [{ when: () => true, reply: { text: 'Hello.' } }] });
  return wasmhooks.createHost({ model });
}

/** A host whose model calls Write (which asks for permission) when told to write, and says `hello` otherwise. */
export function writingHost(hello = 'Hello.') {
  const model = wasmhooks.scriptedModel({
    rules: [
      { when: { lastToolName: 'Write' }, reply: { text: 'Written.' } },
      { when: { lastUser: 'write' }, reply: { text: 'Writing.', toolCalls: [{ name: 'Write', input: { name: 'a.txt' } }] } },
      { when: () => true, reply: { text: hello } },
    ],
  });
  const write = wasmhooks.tool('Write', 'Write a file', z.object({ name: z.string() }), ({ name }) => `wrote ${name}`);
  return wasmhooks.createHost({ model, tools: [write] });
}

export async function withServer(options: Record<string, unknown>, run: (port: number, server: Server) => Promise<void>): Promise<void> {
  const server = createServer(makeHost(), { port: 0, ...options });
  const { port } = await server.listen();
  try {
    await run(port, server);
  } finally {
    await server.close();
  }
}

/** A raw POST; `body` is latin1 (one char per byte). */
export const post = (path: string, body: string, headers: string[] = ['Host: 127.0.0.1', 'Content-Type: application/json']) =>
  `POST ${path} HTTP/1.1\r\n${headers.map((h) => `${h}\r\n`).join('')}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;

/** A JSON POST through fetch, its answer parsed. */
export async function postJson(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

export const errorOf = (body: string) => (JSON.parse(body) as { error: { code: string; message: string } }).error;
export const header = (head: string, name: string) => new RegExp(`^${name}: *(.*)$`, 'im').exec(head)?.[1]?.trim();

/** Reads SSE data objects until `stop` says so; `onEvent` may act on each. */
export async function readEvents<Data extends { type?: unknown }>(
  res: Response,
  stop: (e: Data) => boolean,
  onEvent: (e: Data) => Promise<void> = async () => {},
): Promise<Data[]> {
  const reader = textReader(res);
  const events: Data[] = [];
  const deadline = setTimeout(() => void reader.cancel(), 10_000);
  try {
    for await (const { data: event } of sseMessages<Data>(reader)) {
      events.push(event);
      await onEvent(event);
      if (stop(event)) return events;
    }
    throw new Error(`stream ended early after ${events.map((e) => String(e.type)).join(', ')}`);
  } finally {
    clearTimeout(deadline);
    await reader.cancel().catch(() => {});
  }
}
