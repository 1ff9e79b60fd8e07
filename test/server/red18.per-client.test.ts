// Review red18: `maxSseClients` and `maxSessions` bounded the server as a whole, so one client could take all of
// either (1,000 SSE streams, or POST /session in a loop to 10,000) and lock every other client out. Each remote
// address now holds at most `maxSseClientsPerAddress` streams and `maxSessionsPerAddress` sessions; past them
// 429 too_many_requests naming the cap, and a stream closed or a session deleted gives its place back.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { MemorySessionStore } from '../../host/store/memory.js';
import { realHost } from './real-host.js';

let server: WasmhooksServer;
afterEach(() => server?.close());

const from = (remoteAddress: string) => ({ remoteAddress });
const post = (path: string, address: string) =>
  server.fetch(new Request(`http://127.0.0.1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }), from(address));
const del = (path: string, address: string) => server.fetch(new Request(`http://127.0.0.1${path}`, { method: 'DELETE' }), from(address));
const stream = (address: string) => server.fetch(new Request('http://127.0.0.1/global/event'), from(address));

describe('red18: per-client caps', () => {
  it('one address holds at most maxSseClientsPerAddress streams; others are not affected; a closed stream gives its place back', async () => {
    server = createServer(realHost(), { maxSseClientsPerAddress: 3 });
    const open = await Promise.all([1, 2, 3].map(() => stream('10.0.0.1')));
    expect(open.map((r) => r.status)).toEqual([200, 200, 200]);
    const refused = await stream('10.0.0.1');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: { code: 'too_many_requests', message: expect.stringMatching(/client \(10\.0\.0\.1\) already holds 3 event streams, its cap \(maxSseClientsPerAddress: 3\)/) },
    });
    const other = await stream('10.0.0.2');
    expect(other.status).toBe(200);
    await open[0]!.body!.cancel();
    const again = await stream('10.0.0.1');
    expect(again.status).toBe(200);
    for (const r of [...open.slice(1), other, again]) await r.body!.cancel();
  });

  it('one address creates at most maxSessionsPerAddress sessions, concurrent requests included; a delete gives a place back', async () => {
    server = createServer(realHost(), { maxSessionsPerAddress: 3 });
    const answers = await Promise.all(Array.from({ length: 12 }, () => post('/session', '10.0.0.1')));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(3).fill(201), ...Array(9).fill(429)]);
    const refused = answers.find((r) => r.status === 429)!;
    expect(await refused.json()).toEqual({
      error: { code: 'too_many_requests', message: expect.stringMatching(/client \(10\.0\.0\.1\) already holds 3 sessions, its cap \(maxSessionsPerAddress: 3\)/) },
    });
    expect((await post('/session', '10.0.0.2')).status).toBe(201);
    const created = (await Promise.all(answers.filter((r) => r.status === 201).map((r) => r.json()))) as { id: string }[];
    expect((await del(`/session/${created[0]!.id}`, '10.0.0.9')).status).toBe(200);
    expect((await post('/session', '10.0.0.1')).status).toBe(201);
    expect((await post('/session', '10.0.0.1')).status).toBe(429);
    expect(await server.sessions.list({ offset: 0, limit: 100 }).then((l) => l.total)).toBe(4);
  });

  it('a session deleted behind the registry (another replica, the store) is found gone at the cap', async () => {
    const store = new MemorySessionStore();
    server = createServer(realHost(), { maxSessionsPerAddress: 2, store });
    const ids = [];
    for (let i = 0; i < 2; i++) ids.push(((await (await post('/session', '10.0.0.1')).json()) as { id: string }).id);
    expect((await post('/session', '10.0.0.1')).status).toBe(429);
    await store.delete(ids[0]!);
    expect((await post('/session', '10.0.0.1')).status).toBe(201);
  });

  it('the defaults: 256 streams and 1,000 sessions per address', () => {
    server = createServer(realHost());
    expect(server.options.maxSseClientsPerAddress).toBe(256);
    expect(server.options.maxSessionsPerAddress).toBe(1000);
  });
});
