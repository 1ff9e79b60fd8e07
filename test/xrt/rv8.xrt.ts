// Review (rv8) of red9's HTTP server changes and the lead's conversation cap on Node, Deno and Bun,
// through the built ESM: each scenario is a hole or a regression left on `main` (its vitest twin
// fails on the code before the fix): a prompt too large for any conversation compacted the session
// first, a pinned download answered with HTTP 101 hung past its deadline, and a request target
// with userinfo was a 500 on Node and served on Deno.
import assert from 'node:assert/strict';
import net from 'node:net';
import { createHost, loadPlugin, scriptedModel } from '../../dist/index.js';
import { runtimeName } from '../../dist/server.js';
import { rawRequest } from './raw-http.ts';
import { withServer } from './red6-helpers.ts';
import type { HostEvent, Message } from '../../dist/index.js';

export const scenarios: Record<string, () => Promise<void>> = {
  'a prompt that alone passes maxConversationChars is refused without compacting the session away': async () => {
    const history: Message[] = Array.from({ length: 8 }, (_, i): Message => (i % 2 ? { role: 'assistant', content: [{ type: 'text', text: `a${i}` }] } : { role: 'user', content: `q${i}` }));
    const model = scriptedModel({ turns: [{ text: 'Summary: it was all questions.' }, { text: 'answered' }], contextWindow: 1_000_000 });
    const session = createHost({ model, maxConversationChars: 1_000, keepTurns: 1 }).session({ history });
    const events: HostEvent[] = [];
    for await (const e of session.stream('x'.repeat(1_001))) events.push(e);
    const end = events.find((e) => e.type === 'agent.end');
    assert.ok(end && end.type === 'agent.end');
    assert.equal(end.result.error?.code, 'CONVERSATION_TOO_LARGE');
    assert.match(end.result.error?.message ?? '', /the prompt alone holds 1001 characters/);
    assert.equal(events.filter((e) => e.type === 'context.compacted').length, 0);
    assert.equal(session.messages.length, history.length);
    await session.idle();
    assert.equal((await session.prompt('short')).text, 'Summary: it was all questions.');
  },

  'a pinned plugin download answered with 101 Switching Protocols fails the load at once (it hung past its deadline)': async () => {
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.once('data', () => socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: upgrade\r\n\r\n'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const load = loadPlugin({ url: `http://plugins.test:${port}/p.wasm`, sha256: '0'.repeat(64), address: '127.0.0.1', timeoutMs: 1_000 });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const hung = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the load did not end within 5 s')), 5_000)));
      const error = await Promise.race([load, hung]).then(() => undefined, (e: unknown) => e).finally(() => clearTimeout(timer));
      assert.equal((error as { code?: string }).code, 'LOAD_FAILED', String(error));
      assert.match(String((error as Error).message), /switched protocols/);
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => server.close(resolve));
    }
  },

  'a request target in absolute form with userinfo is 400 (Node answered 500, Deno served it)': () =>
    withServer({}, async (port) => {
      for (const target of [`http://a@127.0.0.1:${port}/health`, `http://a:b@127.0.0.1:${port}/health`, `http://127.0.0.1:${port}@evil.test/health`]) {
        const res = await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
        if (runtimeName() === 'bun') {
          // Bun drops the target's authority (userinfo with it) and builds the URL from Host and the path.
          assert.equal(res.status, 200, `${target}: ${res.head}${res.body}`);
          continue;
        }
        assert.equal(res.status, 400, `${target}: ${res.head}${res.body}`);
        assert.match(res.body, /userinfo|not a proxy/);
      }
      // The path, or the Host's own authority, is served.
      const plain = await rawRequest(port, `GET http://127.0.0.1:${port}/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
      assert.equal(plain.status, 200);
    }),
};
