// Model providers against a loopback server replaying recorded-format
// streams in awkward pieces, on each runtime's own fetch and streams.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { aiSdkModel, anthropicModel, type ModelEvent, openaiModel, resolveModel } from '../../dist/index.js';

interface Reply {
  status?: number;
  headers?: Record<string, string>;
  fixture?: string;
  body?: string;
  after?: 'end' | 'destroy' | 'hang';
}

/** Serves one reply per request; bodies go out cut after the first byte of every multi-byte character and every 23 bytes. */
async function serve(replies: Reply[]) {
  const sockets = new Set<Socket>();
  const closedAt: number[] = [];
  const seen: Array<{ headers: Record<string, unknown>; body: Record<string, unknown> }> = [];
  const server = createServer((req, res) => {
    // A connection that carried a request: fetch may open a spare one (undici does on abort), which says nothing about ours.
    req.socket.once('close', () => closedAt.push(performance.now()));
    let raw = '';
    req.on('data', (d: Uint8Array) => (raw += new TextDecoder().decode(d)));
    req.on('end', () => {
      seen.push({ headers: req.headers, body: raw ? JSON.parse(raw) : {} });
      void send(replies[seen.length - 1] ?? { status: 500, body: '{"error":{"message":"no reply left"}}' }, res);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  async function send(reply: Reply, res: ServerResponse) {
    const status = reply.status ?? 200;
    res.writeHead(status, { 'content-type': status === 200 ? 'text/event-stream' : 'application/json', ...reply.headers });
    const text = reply.fixture ? await readFile(new URL(`../fixtures/streams/${reply.fixture}`, import.meta.url), 'utf8') : (reply.body ?? '');
    const bytes = new TextEncoder().encode(text);
    let from = 0;
    for (let i = 1; i <= bytes.length; i++) {
      const previous = bytes[i - 1] as number;
      if (i === bytes.length || i % 23 === 0 || previous >= 0xc0) {
        res.write(bytes.subarray(from, i));
        from = i;
        await new Promise((r) => setTimeout(r, 0));
      }
    }
    if ((reply.after ?? 'end') === 'end') res.end();
    else if (reply.after === 'destroy') res.socket?.destroy();
  }
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    closedAt,
    close: () =>
      new Promise<void>((r) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => r());
      }),
  };
}

async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const ask = (signal = new AbortController().signal) => ({ messages: [{ role: 'user' as const, content: 'Hi' }], tools: [], signal });
const noWait = { random: () => 0.5, sleep: async () => {} };
const textOf = (events: ModelEvent[]) => events.map((e) => (e.type === 'text.delta' ? e.text : '')).join('');

async function withServer(replies: Reply[], run: (url: string, seen: Awaited<ReturnType<typeof serve>>) => Promise<void>) {
  const server = await serve(replies);
  try {
    await run(server.url, server);
  } finally {
    await server.close();
  }
}

export const scenarios: Record<string, () => Promise<void>> = {
  'OpenAI-compatible: parallel tool calls split mid-UTF-8 and mid-JSON': () =>
    withServer([{ fixture: 'openai-tools.sse' }], async (url) => {
      const events = await collect(openaiModel({ model: 'm', baseURL: url }).stream(ask()));
      assert.equal(textOf(events), 'Ich prüfe beides.');
      const calls = events.filter((e) => e.type === 'tool.call');
      assert.deepEqual(calls.map((c) => c.type === 'tool.call' && c.input), [{ path: '/tmp/grüße.txt', limit: 120 }, { dir: '/var/log', deep: true }, {}]);
      assert.deepEqual(events.at(-1), { type: 'message.end', stopReason: 'tool_use', usage: { inputTokens: 151, outputTokens: 64 } });
    }),

  'Anthropic: thinking with signature, then a tool call': () =>
    withServer([{ fixture: 'anthropic-thinking.sse' }], async (url, server) => {
      const model = anthropicModel({ model: 'm', baseURL: url, apiKey: 'k', thinking: { budgetTokens: 1024 } });
      const end = (await collect(model.stream(ask()))).at(-1);
      assert.equal(end?.type, 'message.end');
      assert.equal(end.type === 'message.end' && end.content?.[0]?.type === 'thinking' && end.content[0].signature?.slice(0, 6), 'EqQBCg');
      assert.equal(server.seen[0]?.headers['anthropic-version'], '2023-06-01');
    }),

  'retries a 429 honouring retry-after, then streams': () =>
    withServer([{ status: 429, headers: { 'retry-after': '2' }, body: '{"error":{"message":"slow down"}}' }, { fixture: 'openai-text.sse' }], async (url) => {
      const waits: number[] = [];
      const retry = { ...noWait, sleep: async (ms: number) => void waits.push(ms) };
      const events = await collect(openaiModel({ model: 'm', baseURL: url, retry }).stream(ask()));
      assert.deepEqual(waits, [2000]);
      assert.equal(textOf(events), 'Grüße aus Köln 👋 — 日本語も OK.');
    }),

  '401 is AUTH with the provider message; resolveModel reads the key from env': () =>
    withServer([{ status: 401, body: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}' }], async (url, server) => {
      const model = resolveModel('anthropic:claude-x', { env: { ANTHROPIC_API_KEY: 'from-env', ANTHROPIC_BASE_URL: url } });
      const events = await collect(model.stream(ask()));
      assert.equal(events.length, 1);
      assert.equal(events[0]?.type === 'error' && events[0].error.code, 'AUTH');
      assert.match(JSON.stringify(events[0]), /invalid x-api-key/);
      assert.equal(server.seen[0]?.headers['x-api-key'], 'from-env');
    }),

  'a cut connection, malformed JSON and an error event are BAD_STREAM / OVERLOADED results': () =>
    withServer(
      [{ fixture: 'openai-cut.sse', after: 'destroy' }, { fixture: 'anthropic-malformed.sse' }, { fixture: 'anthropic-error.sse' }],
      async (url) => {
        const cut = (await collect(openaiModel({ model: 'm', baseURL: url, retry: noWait }).stream(ask()))).at(-1);
        assert.equal(cut?.type === 'error' && cut.error.code, 'BAD_STREAM');
        const anthropic = anthropicModel({ model: 'm', baseURL: url, apiKey: 'k', retry: noWait });
        const malformed = (await collect(anthropic.stream(ask()))).at(-1);
        assert.equal(malformed?.type === 'error' && malformed.error.code, 'BAD_STREAM');
        const overloaded = (await collect(anthropic.stream(ask()))).at(-1);
        assert.equal(overloaded?.type === 'error' && overloaded.error.code, 'OVERLOADED');
      },
    ),

  'abort mid-stream ends the stream at once and closes the connection': () =>
    withServer([{ fixture: 'anthropic-cut.sse', after: 'hang' }], async (url, server) => {
      const controller = new AbortController();
      const model = anthropicModel({ model: 'm', baseURL: url, apiKey: 'k' });
      let abortedAt = 0;
      for await (const event of model.stream(ask(controller.signal))) {
        assert.notEqual(event.type, 'error');
        if (event.type === 'tool.input.delta' && abortedAt === 0) {
          abortedAt = -1;
          setTimeout(() => {
            abortedAt = performance.now();
            controller.abort();
          }, 50);
        }
      }
      assert.ok(performance.now() - abortedAt < 300, 'stream ended promptly after abort');
      for (let i = 0; i < 50 && server.closedAt.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(server.closedAt.length, 1, 'server saw the connection close');
      assert.ok((server.closedAt[0] as number) - abortedAt < 1000);
    }),

  'an AI SDK v4 model behind aiSdkModel': async () => {
    const parts = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-delta', id: 't', delta: 'Grüße' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'now', input: '{}' },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: { inputTokens: { total: 5 }, outputTokens: { total: 2 } } },
    ];
    const fake = {
      specificationVersion: 'v4' as const,
      provider: 'fake',
      modelId: 'f',
      doStream: async () => ({ stream: new ReadableStream({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) }) }),
    };
    const events = await collect(aiSdkModel(fake).stream(ask()));
    assert.deepEqual(events.map((e) => e.type), ['message.start', 'text.delta', 'tool.call', 'message.end']);
    // The message as the AI SDK's streamText assembles it, per part (conf4: with each part's provider metadata).
    assert.deepEqual(events.at(-1), {
      type: 'message.end',
      stopReason: 'tool_use',
      usage: { inputTokens: 5, outputTokens: 2 },
      content: [{ type: 'text', text: 'Grüße' }, { type: 'tool_call', id: 'c1', name: 'now', input: {} }],
    });
  },

  'resolveModel reads OPENAI_API_KEY and OPENAI_BASE_URL from this runtime\'s process.env': () =>
    withServer([{ fixture: 'openai-text.sse' }], async (url, server) => {
      const saved = { key: process.env.OPENAI_API_KEY, base: process.env.OPENAI_BASE_URL };
      process.env.OPENAI_API_KEY = 'sk-from-process-env';
      process.env.OPENAI_BASE_URL = `${url}/v1`;
      try {
        const events = await collect(resolveModel('openai:llama3.2:3b').stream(ask()));
        assert.equal(events.at(-1)?.type, 'message.end');
        assert.equal(server.seen[0]?.headers.authorization, 'Bearer sk-from-process-env');
        assert.equal(server.seen[0]?.body.model, 'llama3.2:3b');
      } finally {
        for (const [name, value] of [['OPENAI_API_KEY', saved.key], ['OPENAI_BASE_URL', saved.base]] as const) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
    }),
};
