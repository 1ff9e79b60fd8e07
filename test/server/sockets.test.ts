// Issue 19 findings on real sockets (Node here; test/xrt/server-hardening.xrt.ts
// runs the same on Deno and Bun): slow SSE readers are cut, requests refused
// before the app get JSON, and shutdown delivers the last events.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { realHost } from './real-host.js';
import { get, openSse, rawRequest, stalledReader } from '../xrt/raw-http.js';
import { until } from './helpers.js';

let server: WasmhooksServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const event = (n: number, text: string) => ({ type: 'text.delta' as const, sessionId: 's', seq: n, time: 0, text });

describe('3. slow SSE clients', () => {
  it('drops a client that stops reading and destroys its socket; a reading client gets everything', async () => {
    server = createServer(realHost(), { port: 0, clientQueueBytes: 512 * 1024 });
    const { port } = await server.listen();
    const stalled = await stalledReader(port, '/event');
    const reading = openSse(port, '/event');
    await reading.opened;
    await until(() => server!.hub.clientCount === 2);
    const big = 'x'.repeat(16 * 1024);
    for (let n = 0; n < 2000 && server.hub.clientCount === 2; n++) {
      server.hub.publish(event(n, big));
      if (n % 4 === 3) await new Promise((r) => setTimeout(r, 1));
    }
    expect(server.hub.clientCount).toBe(1);
    stalled.socket.resume();
    await until(() => stalled.closed(), 5000);
    server.hub.publish(event(9999, 'last'));
    await server.close();
    server = undefined;
    const { data } = await reading.done;
    const seqs = data.map((d) => JSON.parse(d)).filter((e) => e.type === 'text.delta').map((e) => e.seq as number);
    expect(seqs.at(-1)).toBe(9999);
    expect(seqs.slice(0, -1)).toEqual(Array.from({ length: seqs.length - 1 }, (_, i) => i));
    stalled.socket.destroy();
  }, 20_000);

  it('counts frames: clientQueueLimit frames not taken drop the client', async () => {
    server = createServer(realHost(), { port: 0, clientQueueLimit: 50 });
    const { port } = await server.listen();
    const stalled = await stalledReader(port, '/event');
    await until(() => server!.hub.clientCount === 1);
    // Small frames: the socket buffers take them all, so only a queue that is not taken can trip the limit.
    for (let n = 0; n < 200_000 && server.hub.clientCount === 1; n++) {
      server.hub.publish(event(n, 'y'.repeat(200)));
      if (n % 500 === 499) await new Promise((r) => setTimeout(r, 1));
    }
    expect(server.hub.clientCount).toBe(0);
    stalled.socket.resume();
    await until(() => stalled.closed(), 5000);
  }, 20_000);
});

describe('4. shutdown', () => {
  it('delivers control.cancelled and server.closing to every SSE client, then ends the stream cleanly', async () => {
    server = createServer(realHost(), { port: 0 });
    const { port } = await server.listen();
    const session = await fetch(`http://127.0.0.1:${port}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const { id } = (await session.json()) as { id: string };
    const asked = server.broker.ask(id, 'can_use_tool', { toolName: 'Write', toolUseId: 't', input: {}, reason: 'mode', workingDirectory: '/tmp' });
    const streams = [openSse(port, '/event'), openSse(port, '/global/event')];
    await Promise.all(streams.map((s) => s.opened));
    await until(() => server!.hub.clientCount === 2);
    await server.close();
    server = undefined;
    expect(await asked).toEqual({ kind: 'cancelled', reason: 'server-closed' });
    for (const stream of streams) {
      const { data, ended } = await stream.done;
      const types = data.map((d) => JSON.parse(d)).map((e) => (e.event ?? e).type as string);
      expect(types).toContain('control.cancelled');
      expect(types.at(-1)).toBe('server.closing');
      expect(ended).toBe(true);
    }
  });
});

describe('5 and 6. requests refused before the app, malformed Host', () => {
  it('answers in the API error shape wherever Node lets us', async () => {
    server = createServer(realHost(), { port: 0 });
    const { port } = await server.listen();
    const cases: [string, string, number][] = [
      ['20 KB URL', get(`/${'a'.repeat(20_000)}`), 431],
      ['unknown method', 'FOO /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n', 400],
      ['control byte in a header', get('/health', ['Host: 127.0.0.1', 'X-A: a\x01b']), 400],
      ['raw non-ASCII path', get('/s\xe9ssion'), 400],
      ['backslash', get('/\\session'), 400],
      ['Host a b', get('/health', ['Host: a b']), 400],
      ['Host with port 99999', get('/nowhere', ['Host: 127.0.0.1:99999']), 400],
      ['Host %zz', get('/nowhere', ['Host: %zz']), 400],
      ['Host [::1', get('/health', ['Host: [::1']), 400],
      ['foreign Host', get('/session', ['Host: attacker.example:4096']), 403],
    ];
    for (const [name, raw, status] of cases) {
      const answer = await rawRequest(port, raw);
      expect(answer.status, name).toBe(status);
      expect(JSON.parse(answer.body).error, name).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    for (const raw of ['GET /health HTTP/1.0\r\n\r\n', 'GET /health HTTP/1.1\r\nConnection: close\r\n\r\n', get('/health', ['Host: '])]) {
      const answer = await rawRequest(port, raw);
      expect(answer.status, raw).toBe(200);
      expect(JSON.parse(answer.body).ok).toBe(true);
    }
  });
});
