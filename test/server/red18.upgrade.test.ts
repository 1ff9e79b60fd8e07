// Review red18: on Node, a request asking to switch protocols (`Connection: upgrade` with `Upgrade`: a WebSocket or
// h2c attempt) made Node's parser stop reading the connection: the requests pipelined behind it were never answered
// and the socket stayed open. Such a request is now refused (400, the API's JSON, Connection: close) on every
// runtime: by the Node adapter, which gets it before the app, and by the app's guards on Deno and Bun.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { realHost } from './real-host.js';

let server: WasmhooksServer;
afterEach(() => server?.close());

const HEALTH = 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
const upgrade = (headers: string) => `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`;

/** Sends `raw` and reads until the server closes the connection (`closed`) or 10 s pass (a stall). */
function exchange(port: number, raw: string): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closed });
    };
    const timer = setTimeout(() => done(false), 10_000);
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('end', () => done(true));
    socket.on('error', () => done(true));
    socket.write(raw);
  });
}
const statuses = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));

describe('red18: requests asking to switch protocols', () => {
  it('Node: the requests before it are answered, it is refused with a JSON 400, and the connection is closed (no stall)', async () => {
    server = createServer(realHost(), { port: 0 });
    const { port } = await server.listen();
    for (const headers of [
      'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n',
      'Upgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n',
    ]) {
      const { text, closed } = await exchange(port, HEALTH + upgrade(headers) + HEALTH);
      expect(closed).toBe(true);
      expect(statuses(text)).toEqual([200, 400]);
      expect(text).toMatch(/connection: close/i);
      expect(text).toContain('"code":"bad_request"');
      expect(text).toContain('speaks HTTP/1.1 only (no WebSocket, no h2c)');
    }
    // An `Upgrade` header without `Connection: upgrade` asks for nothing: served, keep-alive as usual.
    const plain = await exchange(port, HEALTH + upgrade('Upgrade: websocket\r\nConnection: close\r\n'));
    expect(statuses(plain.text)).toEqual([200, 200]);
  });

  it('the app refuses it too (how Deno and Bun see it), with Connection: close', async () => {
    server = createServer(realHost());
    const res = await server.fetch(new Request('http://127.0.0.1/health', { headers: { connection: 'keep-alive, Upgrade', upgrade: 'websocket' } }));
    expect(res.status).toBe(400);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toEqual({ error: { code: 'bad_request', message: expect.stringContaining('no WebSocket, no h2c') } });
  });
});
