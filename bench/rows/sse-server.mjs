// The two servers of bench/rows/sse.ts, each in a process of its own on the bench's runtime, driven by
// this same script (same publishing loop, same events, same process shape), so that what differs is the server:
//   ours     createServer of the built package (dist/: its SSE route, the event hub, this runtime's adapter),
//            with a scripted-model host; argv[3] is its replay buffer and client queue limit (frames).
//   anchor   the fair anchor: a bare SSE writer on this runtime's own server (node:http on Node, Deno.serve,
//            Bun.serve with a `type: "direct"` body, as ours), no framework, that batches as our hub does: the
//            frames published in one tick are joined and written once per client, in a microtask; ids of our
//            shape and length.
// Protocol: prints {"url"} once listening; then reads one JSON command a line from stdin
//   {"cmd":"burst","events","batch","start"}  → from start, publishes in batches (a macrotask between), prints {"started"}
//   {"cmd":"paced","events","rate","start"}   → prints {"started"}, then publishes event n at start + (n+1)/rate s
//   {"cmd":"mark"} / {"cmd":"cpu"}            → resets / prints {"cpuMs"}: this process's CPU time since the mark
import { createServer } from 'node:http';
import { setImmediate } from 'node:timers';
import { createInterface } from 'node:readline';

const OURS = process.argv[2] === 'ours';
const now = () => performance.timeOrigin + performance.now();
const event = (seq) => ({ type: 'text.delta', text: 'some streamed words ', seq, sessionId: 'bench', time: now() });
const encoder = new TextEncoder();
const HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
const HELLO = encoder.encode(': connected\n\n');
/** Node: ServerResponse; Deno: the controller of each response's body stream; Bun: each direct body's controller. */
const clients = new Set();
let write;

/** Ours: the package's server, listening; `publish` goes to its hub. */
async function listenOurs() {
  const [{ createHost, scriptedModel }, { createServer: createWasmhooksServer }] = await Promise.all([
    import('../../dist/index.js'),
    import('../../dist/server.js'),
  ]);
  const limit = Number(process.argv[3]);
  const server = createWasmhooksServer(createHost({ model: scriptedModel({ turns: [{ text: 'hi' }] }) }), {
    port: 0,
    replayBufferSize: limit,
    clientQueueLimit: limit,
  });
  publish = (seq) => server.hub.publish(event(seq));
  return `${(await server.listen()).url}/event`;
}

/** The anchor: returns its URL. */
async function listen() {
  if ('Bun' in globalThis) {
    // Bun's own fast path for a body written as it goes, the one ours takes: a `type: "direct"` stream, whose
    // controller writes to the connection (no queue, no pull per chunk). A default ReadableStream body costs this
    // writer more CPU per event (a read and a promise per chunk per client), which would flatter us.
    write = (c, bytes) => {
      try {
        c.write(bytes);
      } catch {
        clients.delete(c);
      }
    };
    const handler = () => {
      let controller;
      const body = new ReadableStream({
        type: 'direct',
        pull(c) {
          controller = c;
          c.write(HELLO);
          clients.add(c);
          // The body lasts until the peer leaves (cancel).
          return new Promise(() => {});
        },
        cancel: () => clients.delete(controller),
      });
      return new Response(body, { headers: HEADERS });
    };
    return `http://127.0.0.1:${Bun.serve({ hostname: '127.0.0.1', port: 0, idleTimeout: 0, fetch: handler }).port}/`;
  }
  if ('Deno' in globalThis) {
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
    const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: () => {} }, handler);
    return `http://127.0.0.1:${server.addr.port}/`;
  }
  write = (res, bytes) => res.write(bytes);
  const server = createServer((_req, res) => {
    res.writeHead(200, HEADERS);
    res.write(HELLO);
    clients.add(res);
    res.on('close', () => clients.delete(res));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${server.address().port}/`;
}

// Ids of our shape and length (`<10 base-36 characters>.<position>`), so the frames are byte for byte as long as ours.
const EPOCH = Array.from(crypto.getRandomValues(new Uint8Array(10)), (b) => (b % 36).toString(36)).join('');
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
let publish = (seq) => {
  if (pending.push(encoder.encode(`id: ${EPOCH}.${++id}\ndata: ${JSON.stringify(event(seq))}\n\n`)) === 1) queueMicrotask(flush);
};

const until = (at) => {
  const wait = at - now();
  return wait > 0 ? new Promise((r) => setTimeout(r, wait)) : undefined;
};
const send = (m) => process.stdout.write(`${JSON.stringify(m)}\n`);
let cpu = process.cpuUsage();
send({ url: await (OURS ? listenOurs() : listen()) });
for await (const line of createInterface({ input: process.stdin })) {
  const m = JSON.parse(line);
  if (m.cmd === 'mark') cpu = process.cpuUsage();
  else if (m.cmd === 'cpu') {
    const used = process.cpuUsage(cpu);
    send({ cpuMs: (used.user + used.system) / 1000 });
  } else if (m.cmd === 'burst') {
    await until(m.start);
    const started = now();
    for (let n = 0; n < m.events; n++) {
      publish(n);
      if (n % m.batch === m.batch - 1) await new Promise((r) => setImmediate(r));
    }
    send({ started });
  } else if (m.cmd === 'paced') {
    await until(m.start);
    send({ started: now() });
    for (let n = 0; n < m.events; n++) {
      publish(n);
      const wait = m.start + ((n + 1) * 1000) / m.rate - now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  } else if (m.cmd === 'exit') process.exit(0);
}
process.exit(0);
