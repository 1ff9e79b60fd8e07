// sse10 on Node, Deno and Bun, through the built package and real sockets: the replay window's frames are held in
// byte slabs (host/server/frame-slabs.ts) and /event ticks are written as views of them. What the streams carry is
// unchanged: live and replayed frames byte for byte the same in every format, through a window that wraps over
// several slabs, with multibyte text and an event larger than a slab (vitest twins: test/server/frame-slabs.test.ts,
// test/server/ring-slabs.test.ts).
import assert from 'node:assert/strict';
import net from 'node:net';
import { createServer } from '../../dist/server.js';
import { makeHost } from './red6-helpers.ts';

const PATHS = ['/event', '/global/event', '/global/event?format=reference'];

/** A raw SSE reader keeping the body's bytes (a multibyte character may fall across reads). */
function openRaw(port: number, path: string, headers: string[] = []): { opened: Promise<void>; body: () => Promise<string> } {
  const chunks: Buffer[] = [];
  const socket = net.connect(port, '127.0.0.1');
  const opened = new Promise<void>((resolve) => socket.on('data', (d) => chunks.push(d) && chunks.length === 1 && resolve()));
  const closed = new Promise<void>((resolve) => {
    socket.on('close', () => resolve());
    socket.on('error', () => resolve());
  });
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`);
  return {
    opened,
    body: async () => {
      await closed;
      const raw = Buffer.concat(chunks);
      return unchunk(raw.subarray(raw.indexOf('\r\n\r\n') + 4), /transfer-encoding: chunked/i.test(raw.toString('latin1', 0, raw.indexOf('\r\n\r\n'))));
    },
  };
}

function unchunk(body: Buffer, chunked: boolean): string {
  if (!chunked) return body.toString('utf8');
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; ) {
    const eol = body.indexOf('\r\n', at);
    const size = parseInt(body.toString('latin1', at, eol), 16);
    if (!(size > 0)) break;
    parts.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** The id → frame text of every logged event in a stream. */
function frames(body: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const frame of body.split('\n\n')) {
    const id = /^id: (\S+)\ndata: /.exec(frame)?.[1];
    if (id !== undefined && !/server\.(connected|closing)|replay\.gap/.test(frame)) out.set(id, `${frame}\n\n`);
  }
  return out;
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const TEXTS = ['plain words ', 'é accents à la ', '漢字かな ', '😀 emoji 👩‍👩‍👧 ', 'quote " and \\ and \n newline '];

export const scenarios: Record<string, () => Promise<void>> = {
  'live and replayed frames are the same bytes in every format, over a window that wraps several slabs': async () => {
    const server = createServer(makeHost(), { port: 0, replayBufferSize: 300 });
    const { port } = await server.listen();
    try {
      const live = PATHS.map((path) => openRaw(port, path));
      await Promise.all(live.map((s) => s.opened));
      await until(() => server.hub.clientCount === 3);
      // ~1.2 KB events, 900 of them: about four 256 KiB slabs filled and the first let go; one of 300,000 characters
      // (larger than a slab) in the window.
      for (let n = 1; n <= 900; n++) {
        const text = n === 800 ? 'x'.repeat(300_000) : (TEXTS[n % TEXTS.length] as string).repeat(60 + (n % 7));
        server.hub.publish({ type: 'text.delta', sessionId: `s${n % 3}`, seq: n, time: n, text });
        if (n % 50 === 0) await new Promise((r) => setTimeout(r, 5));
      }
      const epoch = server.hub.log.epoch;
      const replays = PATHS.map((path) => openRaw(port, path, [`Last-Event-ID: ${epoch}.600`]));
      await Promise.all(replays.map((s) => s.opened));
      await until(() => server.hub.clientCount === 6);
      await new Promise((r) => setTimeout(r, 200));
      await server.close();
      const got = await Promise.all([...live, ...replays].map(async (s) => frames(await s.body())));
      for (let i = 0; i < PATHS.length; i++) {
        const [seen, replayed] = [got[i]!, got[i + 3]!];
        assert.equal(seen.size, 900, `${PATHS[i]}: live frames`);
        assert.deepEqual([...replayed.keys()], Array.from({ length: 300 }, (_, k) => `${epoch}.${601 + k}`), `${PATHS[i]}: replayed ids`);
        for (const [id, frame] of replayed) assert.equal(frame, seen.get(id), `${PATHS[i]} ${id}: replayed as sent live`);
      }
      const data = (i: number, id: string) => JSON.parse(/\ndata: (.*)\n\n$/.exec(got[i]!.get(id)!)![1]!);
      assert.equal(data(0, `${epoch}.800`).text.length, 300_000);
      assert.deepEqual(data(0, `${epoch}.604`), { type: 'text.delta', sessionId: 's1', seq: 604, time: 604, text: (TEXTS[4] as string).repeat(60 + (604 % 7)) });
      assert.deepEqual(data(1, `${epoch}.603`).event.text, (TEXTS[3] as string).repeat(60 + (603 % 7)));
      assert.deepEqual(data(2, `${epoch}.602`).payload.properties.text, (TEXTS[2] as string).repeat(60 + (602 % 7)));
    } finally {
      await server.close();
    }
  },
};
