// Hostile review red3 on each runtime, through its own serve adapter and raw
// sockets (one scenario per class of hole; the vitest side is
// test/server/red3.test.ts).
import assert from 'node:assert/strict';
import * as wasmhooks from '../../dist/index.js';
import { createServer, runtimeName } from '../../dist/server.js';
import { get, rawRequest } from './raw-http.ts';

const runtime = runtimeName();
type Server = ReturnType<typeof createServer>;

function makeHost() {
  const model = wasmhooks.scriptedModel({ rules: [{ when: () => true, reply: { text: 'Hello.' } }] });
  return wasmhooks.createHost({ model });
}

async function withServer(options: Record<string, unknown>, run: (port: number, server: Server) => Promise<void>): Promise<void> {
  const server = createServer(makeHost(), { port: 0, ...options });
  const { port } = await server.listen();
  try {
    await run(port, server);
  } finally {
    await server.close();
  }
}

const header = (head: string, name: string) => new RegExp(`^${name}: *(.*)$`, 'im').exec(head)?.[1]?.trim();

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: another site cannot frame the console or embed the API (fetch metadata, framing headers)`]: () =>
    withServer({}, async (port) => {
      const framed = await rawRequest(port, get('/', ['Host: 127.0.0.1', 'Sec-Fetch-Site: cross-site', 'Sec-Fetch-Mode: navigate', 'Sec-Fetch-Dest: iframe']));
      assert.equal(framed.status, 403, framed.head);
      assert.match(framed.body, /embedded by another site/);
      const script = await rawRequest(port, get('/session', ['Host: 127.0.0.1', 'Sec-Fetch-Site: same-site', 'Sec-Fetch-Mode: no-cors', 'Sec-Fetch-Dest: script']));
      assert.equal(script.status, 403);
      const page = await rawRequest(port, get('/', ['Host: 127.0.0.1', 'Sec-Fetch-Site: cross-site', 'Sec-Fetch-Mode: navigate', 'Sec-Fetch-Dest: document']));
      assert.equal(page.status, 200);
      assert.equal(header(page.head, 'x-frame-options'), 'DENY');
      assert.match(header(page.head, 'content-security-policy') ?? '', /script-src 'sha256-[A-Za-z0-9+/]+=*'.*frame-ancestors 'none'/);
      for (const res of [framed, await rawRequest(port, get('/session')), await rawRequest(port, get('/nope'))]) {
        assert.equal(header(res.head, 'x-frame-options'), 'DENY', res.head);
        assert.equal(header(res.head, 'x-content-type-options'), 'nosniff', res.head);
      }
    }),
};
