// Raw HTTP over node:net (imported as raw-http.ts by the xrt scenarios, which Deno
// resolves only by its real name) (works under Node, Deno and Bun): requests no fetch
// would send (foreign or malformed Host, unknown methods, control bytes), and
// SSE readers that stop reading; and a plain node:http server to be asked (`listenOn`).
import http from 'node:http';
import net from 'node:net';

export interface RawAnswer {
  /** 0 when the server closed without answering. */
  status: number;
  head: string;
  body: string;
}

/** Sends `raw` (latin1) and reads until the server closes or `timeoutMs`. */
export function rawRequest(port: number, raw: string, timeoutMs = 2000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const at = text.indexOf('\r\n\r\n');
      const head = at < 0 ? text : text.slice(0, at);
      let body = at < 0 ? '' : text.slice(at + 4);
      if (/transfer-encoding: chunked/i.test(head)) body = unchunk(body);
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), head, body });
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('data', (d) => chunks.push(d));
    socket.on('close', done);
    socket.on('error', done);
    socket.write(Buffer.from(raw, 'latin1'));
  });
}

function unchunk(body: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) return out;
    const size = parseInt(body.slice(at, eol), 16);
    if (!(size > 0)) return out;
    out += body.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

/** A GET with Connection: close and the given extra header lines. */
export const get = (path: string, headers: string[] = ['Host: 127.0.0.1']) =>
  `GET ${path} HTTP/1.1\r\n${headers.map((h) => `${h}\r\n`).join('')}Connection: close\r\n\r\n`;

/**
 * Opens an SSE stream on a raw socket and stops reading after the first
 * bytes. A paused socket does not notice the server closing it: `resume()`
 * drains what the kernel holds, and `closed()` then says whether the server
 * cut the connection.
 */
export function stalledReader(port: number, path: string, headers: string[] = []): Promise<{ closed: () => boolean; socket: net.Socket }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`);
      // Read the first bytes (the stream is open), then stop reading for good.
      socket.once('data', () => {
        socket.pause();
        resolve({ closed: () => closed, socket });
      });
    });
    let closed = false;
    socket.on('close', () => (closed = true));
    socket.on('error', () => (closed = true));
  });
}

/**
 * Opens an SSE stream on a raw socket and reads it until the server ends it.
 * `done.ended` says whether the chunked body was terminated properly (not cut).
 */
export function openSse(port: number, path: string, headers: string[] = [], timeoutMs = 5000): { opened: Promise<void>; done: Promise<{ data: string[]; ended: boolean }> } {
  let opened!: () => void;
  const openedP = new Promise<void>((r) => (opened = r));
  const done = new Promise<{ data: string[]; ended: boolean }>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      resolve({ data: [...unchunk(body).matchAll(/^data: (.*)$/gm)].map((m) => m[1] as string), ended: /(^|\r\n)0\r\n\r\n$/.test(body) });
    };
    const timer = setTimeout(finish, timeoutMs);
    let isOpen = false;
    socket.on('data', (d) => {
      text += d.toString('utf8');
      if (!isOpen && text.includes('\r\n\r\n')) {
        isOpen = true;
        opened();
      }
    });
    socket.on('close', finish);
    socket.on('error', finish);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`);
  });
  return { opened: openedP, done };
}

/**
 * Sends `head` and then `drip` every 100 ms, as a slowloris client does (body bytes, or header bytes),
 * until the server answers and closes (or `ms` pass). Resolves with the answer's status line and whether the server closed.
 * `statusOnly`: resolve once the status line is in (closed: false), for Deno, which answers and never closes
 * (docs/http-api.md), where only the status is checked and the read waited out all of `ms`.
 */
export function trickle(port: number, head: string, drip: string, ms: number, statusOnly = false): Promise<{ status: string; closed: boolean; afterMs: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    let got = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
    const timer = setInterval(() => socket.writable && socket.write(drip), 100);
    const finish = (closed: boolean) => {
      clearInterval(timer);
      clearTimeout(stop);
      socket.destroy();
      resolve({ status: got.split('\r\n')[0] ?? '', closed, afterMs: Date.now() - started });
    };
    const stop = setTimeout(() => finish(false), ms);
    socket.on('data', (d) => {
      got += d.toString('latin1');
      if (statusOnly && got.includes('\r\n')) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
  });
}

/** A node:http server on `address` (port 0: any), counting what it is asked. */
export async function listenOn(address: string, port: number, answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: { path: string; host: string }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '', host: req.headers.host ?? '' });
    answer(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => resolve());
  });
  return { server, seen, port: (server.address() as net.AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
}
