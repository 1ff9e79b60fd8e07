// The hub writing to a connection directly (Connection.direct, Node's fast
// path): one shared chunk per view per tick, backpressure, the slow-client
// cut, shutdown; and on real sockets, that the headers of every middleware
// (auth, CORS) still reach the peer on that path.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { EventHub } from '../../host/server/hub.js';
import type { StreamEvent } from '../../host/server/events.js';
import type { DirectSink, DirectSource } from '../../host/runtime/serve-types.js';
import { MemoryEventLog } from '../../host/store/memory-log.js';
import { realHost } from './real-host.js';
import { until } from './helpers.js';

const options = { replayBufferSize: 100, heartbeatMs: 60_000, clientQueueLimit: 10, clientQueueBytes: 1 << 20, retryMs: 1000 };
const delta = (seq: number, sessionId = 's'): StreamEvent => ({ type: 'text.delta', sessionId, seq, time: 0, text: `t${seq}` });
const tick = () => new Promise<void>((r) => setTimeout(r, 0));
const decoder = new TextDecoder();

/** A fake connection: records writes, reports a full buffer when `full` is set. */
class Connection implements DirectSink {
  writes: Uint8Array[] = [];
  full = false;
  ended = false;
  destroyed = false;
  source!: DirectSource;
  write(bytes: Uint8Array): boolean {
    this.writes.push(bytes);
    return !this.full;
  }
  end(): void {
    this.ended = true;
  }
  destroy(): void {
    this.destroyed = true;
  }
  text(): string {
    return this.writes.map((w) => decoder.decode(w)).join('');
  }
}

function openDirect(hub: EventHub, session?: string): { connection: Connection; body: ReadableStream<Uint8Array> } {
  const connection = new Connection();
  let offered: ReadableStream<Uint8Array> | undefined;
  const body = hub.open({
    format: 'plain',
    ...(session !== undefined ? { session } : {}),
    direct: (b, attach) => {
      offered = b;
      connection.source = attach(connection);
    },
  });
  expect(offered).toBe(body);
  return { connection, body };
}

describe('direct writing (Connection.direct)', () => {
  it('writes one chunk per tick, the same bytes to every client of a view, and only their session to a filtered one', async () => {
    const hub = new EventHub(options, new MemoryEventLog(100));
    const a = openDirect(hub);
    const b = openDirect(hub);
    const only = openDirect(hub, 'other');
    expect(a.connection.writes).toHaveLength(1); // retry + server.connected, at once
    expect(a.connection.text()).toMatch(/^retry: 1000\n\nid: .*\ndata: \{"type":"server.connected"/);
    for (let n = 0; n < 5; n++) hub.publish(delta(n));
    hub.publish(delta(99, 'other'));
    await tick();
    expect(a.connection.writes).toHaveLength(2);
    expect(a.connection.writes[1]).toBe(b.connection.writes[1]);
    const seqs = (c: Connection) => [...c.text().matchAll(/"seq":(\d+)/g)].map((m) => Number(m[1]));
    expect(seqs(a.connection)).toEqual([0, 1, 2, 3, 4, 99]);
    expect(seqs(only.connection)).toEqual([99]);
    // The web stream was handed over, never read.
    expect(a.body.locked).toBe(false);
    await hub.close(10);
    for (const c of [a, b, only]) expect(c.connection.ended).toBe(true);
    expect(a.connection.text()).toMatch(/server\.closing[^\n]*\n\n$/);
  });

  it('queues while the connection is full, delivers on resume in one write, and cuts a client past its limit', async () => {
    const hub = new EventHub(options, new MemoryEventLog(100));
    const slow = openDirect(hub);
    const fast = openDirect(hub);
    slow.connection.full = true;
    hub.publish(delta(0));
    await tick();
    expect(slow.connection.writes).toHaveLength(2); // this write said "full"
    for (let n = 1; n <= 5; n++) {
      hub.publish(delta(n));
      await tick();
    }
    expect(slow.connection.writes).toHaveLength(2);
    slow.connection.full = false;
    slow.connection.source.resume();
    expect(slow.connection.writes).toHaveLength(3);
    expect([...decoder.decode(slow.connection.writes[2]).matchAll(/"seq":(\d+)/g)].map((m) => Number(m[1]))).toEqual([1, 2, 3, 4, 5]);
    // Full again: the 11th frame not taken drops it (clientQueueLimit 10), the other client goes on.
    slow.connection.full = true;
    hub.publish(delta(6));
    await tick();
    for (let n = 7; n <= 17 && !slow.connection.destroyed; n++) {
      hub.publish(delta(n));
      await tick();
    }
    expect(slow.connection.destroyed).toBe(true);
    expect(hub.clientCount).toBe(1);
    expect(fast.connection.text()).toContain('"seq":17');
    // The peer leaving is the connection's close.
    fast.connection.source.close();
    expect(hub.clientCount).toBe(0);
    await hub.close(10);
  });
});

describe('direct writing on Node sockets', () => {
  let server: WasmhooksServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('keeps auth and CORS: 401 without the token, the CORS headers on the stream, HEAD opens nothing', async () => {
    server = createServer(realHost(), { port: 0, token: 'secret-token-0123456789', corsOrigins: ['http://app.example'] });
    const { url } = await server.listen();
    const refused = await fetch(`${url}/event`);
    expect(refused.status).toBe(401);
    expect(server.hub.clientCount).toBe(0);
    const head = await fetch(`${url}/event`, { method: 'HEAD', headers: { authorization: 'Bearer secret-token-0123456789' } });
    expect(head.status).toBe(200);
    expect(server.hub.clientCount).toBe(0);
    const res = await fetch(`${url}/event`, { headers: { authorization: 'Bearer secret-token-0123456789', origin: 'http://app.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('http://app.example');
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('server.connected')) text += decoder.decode((await reader.read()).value);
    expect(server.hub.clientCount).toBe(1);
    server.hub.publish(delta(7));
    while (!text.includes('"seq":7')) text += decoder.decode((await reader.read()).value);
    await reader.cancel();
    await until(() => server!.hub.clientCount === 0);
  });
});
