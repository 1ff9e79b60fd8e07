// A loopback HTTP server that replays recorded-format provider streams,
// written in awkward pieces, one scripted reply per request.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** A file under test/fixtures/streams, or a literal body. */
  fixture?: string;
  body?: string;
  /** Pause between pieces in ms (default: none, just a macrotask). */
  gapMs?: number;
  /** After the body: end cleanly (default), destroy the socket mid-response, or hold it open. */
  after?: 'end' | 'destroy' | 'hang';
  /** Destroy the connection before sending anything (a network failure). */
  drop?: boolean;
  /** Never answer (no headers), keeping the connection open. */
  silent?: boolean;
}

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface ReplayServer {
  url: string;
  seen: Seen[];
  /** performance.now() of each closed client connection. */
  closedAt: number[];
  close(): Promise<void>;
}

export function fixture(name: string): string {
  return readFileSync(new URL(`../fixtures/streams/${name}`, import.meta.url), 'utf8');
}

/**
 * Split points that cut inside multi-byte UTF-8 sequences, inside JSON
 * tokens and inside SSE field names: after the first byte of every
 * multi-byte character, and every 23 bytes.
 */
function awkwardPieces(bytes: Uint8Array, stride = 23): Uint8Array[] {
  const cuts = new Set<number>();
  for (let i = 0; i < bytes.length; i++) {
    if (i % stride === 0) cuts.add(i);
    const byte = bytes[i] as number;
    if (byte >= 0xc0 && i + 1 < bytes.length) cuts.add(i + 1);
  }
  const sorted = [...cuts].filter((c) => c > 0).sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const cut of sorted) {
    pieces.push(bytes.subarray(from, cut));
    from = cut;
  }
  pieces.push(bytes.subarray(from));
  return pieces;
}

const wait = (ms: number) => new Promise<void>((r) => (ms > 0 ? setTimeout(r, ms) : setImmediate(r)));

export async function replayServer(replies: Reply[]): Promise<ReplayServer> {
  const seen: Seen[] = [];
  const closedAt: number[] = [];
  const server = createServer((req, res) => {
    req.socket.once('close', () => closedAt.push(performance.now()));
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (raw += d));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body: raw ? JSON.parse(raw) : {} });
      const reply = replies[seen.length - 1] ?? { status: 500, body: '{"error":{"message":"replay server: no reply left"}}' };
      void send(reply, res).catch(() => {});
    });
  });
  async function send(reply: Reply, res: import('node:http').ServerResponse): Promise<void> {
    if (reply.drop) return void res.socket?.destroy();
    if (reply.silent) return;
    const status = reply.status ?? 200;
    const type = status < 300 ? 'text/event-stream' : 'application/json';
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-cache', ...reply.headers });
    res.flushHeaders();
    const text = reply.fixture ? fixture(reply.fixture) : (reply.body ?? '');
    for (const piece of awkwardPieces(new TextEncoder().encode(text))) {
      if (res.destroyed) return;
      res.write(piece);
      await wait(reply.gapMs ?? 0);
    }
    const after = reply.after ?? 'end';
    if (after === 'end') res.end();
    else if (after === 'destroy') res.socket?.destroy();
  }
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    closedAt,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
