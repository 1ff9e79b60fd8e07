// The HTTP control plane on each runtime, through that runtime's serve
// adapter: a real socket, a session, a prompt, SSE until agent.end, and a
// control request answered over HTTP.
import assert from 'node:assert/strict';
import { createServer, runtimeName } from '../../dist/server.js';
import { readEvents, writingHost } from './red6-helpers.ts';

const TOKEN = 'xrt-token-0123456789abcdef';
const auth = { authorization: `Bearer ${TOKEN}` };

/** An SSE data object: an event, or a `/global/event` envelope around one. */
interface Data {
  type?: string;
  id?: string;
  subtype?: string;
  text?: string;
  content?: string;
  result?: { subtype: string };
  event?: Data;
}

type Server = ReturnType<typeof createServer>;

async function withServer(run: (url: string, server: Server) => Promise<void>, options: { maxSessions?: number } = {}): Promise<void> {
  const server = createServer(writingHost('Hello from the scripted model.'), { port: 0, token: TOKEN, ...options });
  const { url } = await server.listen();
  try {
    await run(url, server);
  } finally {
    await server.close();
  }
}

async function post(url: string, body: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(url, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

export const scenarios: Record<string, () => Promise<void>> = {
  [`serves on ${runtimeName()}: session, prompt, SSE until agent.end`]: () =>
    withServer(async (url) => {
      assert.equal((await fetch(`${url}/session`)).status, 401);
      const session = await post(`${url}/session`, {});
      assert.equal(session.status, 201);
      const id = session.json.id as string;
      const stream = await fetch(`${url}/event?session=${id}`, { headers: auth });
      assert.equal(stream.headers.get('content-type'), 'text/event-stream; charset=utf-8');
      const reading = readEvents<Data>(stream, (e) => e.type === 'agent.end');
      assert.equal((await post(`${url}/session/${id}/prompt`, { prompt: 'hi' })).status, 202);
      const events = await reading;
      assert.equal(events[0]?.type, 'server.connected');
      const text = events.filter((e) => e.type === 'text.delta').map((e) => e.text).join('');
      assert.equal(text, 'Hello from the scripted model.');
      assert.equal(events.at(-1)?.result?.subtype, 'success');
    }),

  'maxSessions: one session too many is 429 until one is deleted': () =>
    withServer(
      async (url) => {
        const first = await post(`${url}/session`, {});
        assert.equal(first.status, 201);
        const refused = await post(`${url}/session`, {});
        assert.equal(refused.status, 429);
        assert.equal(refused.json.error.code, 'too_many_sessions');
        assert.equal((await fetch(`${url}/session/${first.json.id}`, { method: 'DELETE', headers: auth })).status, 200);
        assert.equal((await post(`${url}/session`, {})).status, 201);
      },
      { maxSessions: 1 },
    ),

  'answers a control request over HTTP and the tool runs': () =>
    withServer(async (url) => {
      const id = (await post(`${url}/session`, {})).json.id as string;
      const stream = await fetch(`${url}/global/event`, { headers: auth });
      let stale: string | undefined;
      const reading = readEvents<Data>(
        stream,
        (e) => e.event?.type === 'agent.end',
        async (envelope) => {
          const e = envelope.event;
          if (e?.type !== 'control.request') return;
          const answer = { requestID: e.id, subtype: e.subtype, response: { behavior: 'allow' } };
          assert.deepEqual((await post(`${url}/session/${id}/control-response`, answer)).json, { resolved: true });
          stale = e.id;
        },
      );
      assert.equal((await post(`${url}/session/${id}/prompt`, { prompt: 'write it' })).status, 202);
      const events = (await reading).map((e) => e.event);
      const output = events.find((e) => e?.type === 'tool.output');
      assert.equal(output?.content, 'wrote a.txt');
      const again = await post(`${url}/session/${id}/control-response`, { requestID: stale, subtype: 'can_use_tool', response: { behavior: 'allow' } });
      assert.equal(again.json.resolved, false);
    }),

  'drops an SSE client that disconnects, and close() ends open streams': () =>
    withServer(async (url, server) => {
      const first = await fetch(`${url}/event`, { headers: auth });
      const reader = first.body!.getReader();
      await reader.read();
      assert.equal(server.hub.clientCount, 1);
      await reader.cancel();
      for (let i = 0; i < 200 && server.hub.clientCount > 0; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(server.hub.clientCount, 0);
      const second = await fetch(`${url}/event`, { headers: auth });
      const open = second.body!.getReader();
      await open.read();
      await server.close();
      const rest = await Promise.race([
        (async () => {
          for (;;) if ((await open.read().catch(() => ({ done: true }))).done) return 'ended';
        })(),
        new Promise((r) => setTimeout(() => r('still open'), 3000)),
      ]);
      assert.equal(rest, 'ended');
    }),
};
