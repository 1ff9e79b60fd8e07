// The bench's raw SSE throughput clients (bench/rows/sse-clients.mjs) count text.delta frames by a byte search over
// each read. A frame's bytes can reach the client in reads of any size: a frame start split over more than two
// reads must still be counted once, or a run waits for events that arrived (and a split that double-counts would
// end a run early and flatter the server).
import { spawn } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';

const frame = (seq: number) => `id: 0123456789.${seq}\ndata: ${JSON.stringify({ type: 'text.delta', sessionId: 'b', seq, time: 0, text: 'w' })}\n\n`;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A server that sends `events` frames (plus a non-delta one) in `piece`-byte writes, each its own read at the peer. */
function server(events: number, piece: number): Promise<{ url: string; close: () => void }> {
  const sockets: Socket[] = [];
  const srv = createServer((socket) => {
    sockets.push(socket);
    socket.setNoDelay(true);
    socket.once('data', async () => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n');
      let body = 'retry: 1000\n\nid: 0123456789.0\ndata: {"type":"server.connected"}\n\n';
      for (let n = 0; n < events; n++) body += frame(n);
      for (let at = 0; at < body.length; at += piece) {
        if (socket.destroyed) return;
        socket.write(body.slice(at, at + piece));
        await pause(3);
      }
    });
  });
  return new Promise((resolve) =>
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}/events`, close: () => (sockets.forEach((s) => s.destroy()), srv.close()) });
    }),
  );
}

async function count(url: string, events: number): Promise<{ lost: number } | 'unfinished'> {
  const child = spawn('node', ['bench/rows/sse-clients.mjs', JSON.stringify({ urls: [url], clients: 1, events, count: true })], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const lines = createInterface({ input: child.stdout });
    const result = new Promise<{ lost: number }>((resolve) =>
      lines.on('line', (line) => {
        const m = JSON.parse(line) as { results?: { lost: number }[] };
        if (m.results) resolve(m.results[0]!);
      }),
    );
    return await Promise.race([result, pause(8000).then(() => 'unfinished' as const)]);
  } finally {
    child.kill();
  }
}

describe('bench sse-clients byte count', () => {
  for (const piece of [5, 13, 64]) {
    it(`counts every frame once when the stream arrives in ${piece}-byte reads`, async () => {
      const events = 12;
      const s = await server(events, piece);
      try {
        expect(await count(s.url, events)).toMatchObject({ lost: 0 });
      } finally {
        s.close();
      }
    }, 20_000);
  }
});
