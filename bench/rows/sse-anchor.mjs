// The fair anchor of bench/rows/sse.ts, in a process of its own on the bench's runtime: a bare SSE
// writer on that runtime's own server (node:http on Node, Deno.serve, Bun.serve), no framework, that
// batches as our hub does: the frames published in one tick are joined and written once per client,
// in a microtask. It publishes the bench's events itself, on the same schedule as ours.
// Protocol: prints {"port"} once listening; then reads one JSON command a line from stdin
//   {"cmd":"burst","events","batch","start"}  → from start, publishes in batches (a macrotask between), prints {"started"}
//   {"cmd":"paced","events","rate","start"}   → publishes event n at start + (n+1)/rate s, prints {"started"}
//   {"cmd":"mark"} / {"cmd":"cpu"}            → resets / prints {"cpuMs"}: this process's CPU time since the mark
import { createServer } from 'node:http';
import { setImmediate } from 'node:timers';
import { createInterface } from 'node:readline';

const now = () => performance.timeOrigin + performance.now();
const encoder = new TextEncoder();
const HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
const HELLO = encoder.encode(': connected\n\n');
/** Node: ServerResponse; Deno and Bun: the controller of each response's body stream. */
const clients = new Set();
let write;

async function listen() {
  if ('Deno' in globalThis || 'Bun' in globalThis) {
    write = (c, bytes) => {
      try {
        c.enqueue(bytes);
      } catch {
        clients.delete(c);
      }
    };
    const handler = () => {
      let controller;
      const body = new ReadableStream({
        start(c) {
          controller = c;
          c.enqueue(HELLO);
          clients.add(c);
        },
        cancel: () => clients.delete(controller),
      });
      return new Response(body, { headers: HEADERS });
    };
    if ('Deno' in globalThis) {
      const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: () => {} }, handler);
      return server.addr.port;
    }
    return Bun.serve({ hostname: '127.0.0.1', port: 0, idleTimeout: 0, fetch: handler }).port;
  }
  write = (res, bytes) => res.write(bytes);
  const server = createServer((_req, res) => {
    res.writeHead(200, HEADERS);
    res.write(HELLO);
    clients.add(res);
    res.on('close', () => clients.delete(res));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server.address().port;
}

let id = 0;
let pending = [];
function flush() {
  const frames = pending;
  pending = [];
  let bytes = frames[0];
  if (frames.length > 1) {
    bytes = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
    let at = 0;
    for (const f of frames) bytes.set(f, at), (at += f.length);
  }
  for (const c of clients) write(c, bytes);
}
function publish(seq) {
  const event = { type: 'text.delta', text: 'some streamed words ', seq, sessionId: 'bench', time: now() };
  if (pending.push(encoder.encode(`id: anchor.${++id}\ndata: ${JSON.stringify(event)}\n\n`)) === 1) queueMicrotask(flush);
}

const send = (m) => process.stdout.write(`${JSON.stringify(m)}\n`);
let cpu = process.cpuUsage();
send({ port: await listen() });
for await (const line of createInterface({ input: process.stdin })) {
  const m = JSON.parse(line);
  if (m.cmd === 'mark') cpu = process.cpuUsage();
  else if (m.cmd === 'cpu') {
    const used = process.cpuUsage(cpu);
    send({ cpuMs: (used.user + used.system) / 1000 });
  } else if (m.cmd === 'burst') {
    if (m.start > now()) await new Promise((r) => setTimeout(r, m.start - now()));
    const started = now();
    for (let n = 0; n < m.events; n++) {
      publish(n);
      if (n % m.batch === m.batch - 1) await new Promise((r) => setImmediate(r));
    }
    send({ started });
  } else if (m.cmd === 'paced') {
    if (m.start > now()) await new Promise((r) => setTimeout(r, m.start - now()));
    send({ started: now() });
    for (let n = 0; n < m.events; n++) {
      publish(n);
      const due = m.start + ((n + 1) * 1000) / m.rate;
      if (due > now()) await new Promise((r) => setTimeout(r, due - now()));
    }
  } else if (m.cmd === 'exit') process.exit(0);
}
process.exit(0);
