// The SSE clients of bench/rows/sse.ts, always a Node process of their own (the same load generator
// for every runtime's server, and the server's process CPU time is the server's alone): `clients`
// streams of each URL in `urls`, each reading until it has `events` text.delta events.
// - Latency runs (default): node:http, parsing each frame's JSON for its publish→delivery latency.
// - Throughput runs (`count`): raw TCP sockets with no HTTP or SSE parser, one shared read buffer
//   (`net` `onread`: no stream machinery, no allocation per read), counting the text.delta frames
//   by a byte search over what arrives. The server's chunked framing cannot hide a frame's start:
//   a frame is never split across two writes by either server, and a match split across reads
//   (of any size) is found through the stream's previous bytes (test/bench/sse-clients.test.ts). These clients must cost far less than the servers,
//   or the row measures the clients (a node:http client parsing every frame ran at 60–90% of a core
//   against each server's 13–20%).
// Argument: one JSON object { urls, clients, events, count? }. Prints JSON lines: {"ready":true}, then
// {"results":[{ p50, p99, max, lost, lastAt, cpuMs }, …]} in the order of `urls` (lastAt: when the last
// event reached the last client, wall clock in ms; cpuMs: this process's CPU time from ready to the end; p50/p99/max are absent from throughput runs).
import { connect } from 'node:net';
import { request } from 'node:http';

const { urls, clients, events, count = false } = JSON.parse(process.argv[2]);
const now = () => performance.timeOrigin + performance.now();
const send = (m) => process.stdout.write(`${JSON.stringify(m)}\n`);
let connected = 0;
/** This process's CPU time from `ready` on (the clients' own cost, reported beside the servers'). */
let cpu;
const ready = () => {
  cpu = process.cpuUsage();
  send({ ready: true });
};

function client(url, into) {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      res.setEncoding('utf8');
      let buf = '';
      let got = 0;
      let expect = 0;
      if (++connected === clients * urls.length) ready();
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        into.lost += events - got;
        // Stays connected (see `hangUp`): only stops reading.
        res.pause();
        resolve();
      };
      res.on('data', (text) => {
        if (finished) return;
        buf += text;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const at = block.indexOf('data: ');
          if (at < 0) continue;
          const t = now();
          const e = JSON.parse(block.slice(at + 6));
          if (e.type !== 'text.delta') continue;
          into.latencies.push(t - e.time);
          const seq = e.seq;
          into.lastAt = Math.max(into.lastAt, t);
          if (seq !== expect) into.lost += seq - expect;
          expect = seq + 1;
          if (++got === events) return finish();
        }
      });
      res.on('end', finish);
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The start of every text.delta frame, as both servers write it (`data: ` then the event's JSON, `type` first). */
const MARK = Buffer.from('\ndata: {"type":"text.delta"');
const TAIL = MARK.length - 1;
/** One read buffer for every socket: a read is counted before the next one lands. */
const shared = Buffer.allocUnsafe(256 * 1024);
/** The previous read's last bytes and the next read's first, to find a mark split between two reads. */
const seam = Buffer.allocUnsafe(2 * TAIL);

/** A throughput client: a raw HTTP/1.1 GET, then a byte count of text.delta frames (see the file's head). */
function rawClient(url, into) {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    let got = 0;
    let started = false;
    let finished = false;
    const tail = Buffer.alloc(TAIL);
    let tailLength = 0;
    const finish = () => {
      if (finished) return;
      finished = true;
      into.lost += events - got;
      // Stays connected (see `hangUp`): only stops reading.
      socket.pause();
      resolve();
    };
    const socket = connect({
      host: hostname,
      port: Number(port),
      onread: {
        buffer: shared,
        callback(n, whole) {
          into.reads++;
          // A view of this read only (the shared buffer holds older reads' bytes past n).
          const buf = whole.subarray(0, n);
          let from = 0;
          if (!started) {
            // The status line and headers come first: only a 200 counts, and the body starts after them.
            const end = buf.indexOf('\r\n\r\n');
            if (buf.latin1Slice(0, 12) !== 'HTTP/1.1 200' || end < 0 || end >= n) {
              reject(new Error(`${url}: ${buf.latin1Slice(0, Math.min(n, 80))}`));
              return false;
            }
            started = true;
            if (++connected === clients * urls.length) ready();
            from = end + 4;
          }
          let count = 0;
          if (tailLength > 0) {
            // A mark split between the previous read and this one starts inside the tail.
            tail.copy(seam, 0, 0, tailLength);
            const head = Math.min(TAIL, n);
            buf.copy(seam, tailLength, 0, head);
            const at = seam.subarray(0, tailLength + head).indexOf(MARK);
            if (at >= 0 && at < tailLength) count++;
          }
          for (let i = buf.indexOf(MARK, from); i >= 0; i = buf.indexOf(MARK, i + MARK.length)) count++;
          // The tail is the stream's last bytes, not this read's: a read shorter than the mark keeps the older
          // bytes before it, so a mark spread over three reads or more is still found (once: it has one newline).
          const fresh = n - from;
          if (fresh >= TAIL) {
            buf.copy(tail, 0, n - TAIL, n);
            tailLength = TAIL;
          } else {
            const keep = Math.min(tailLength, TAIL - fresh);
            tail.copy(tail, 0, tailLength - keep, tailLength);
            buf.copy(tail, keep, from, n);
            tailLength = keep + fresh;
          }
          if (count > 0) {
            got += count;
            into.lastAt = Math.max(into.lastAt, now());
          }
          if (got < events) return true;
          finish();
          return false;
        },
      },
    });
    socket.setNoDelay(true);
    socket.on('connect', () => socket.write(`GET ${pathname}${search} HTTP/1.1\r\nhost: ${hostname}:${port}\r\naccept: text/event-stream\r\n\r\n`));
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', (error) => (started ? finish() : reject(error)));
  });
}

const rank = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
const sets = urls.map(() => ({ latencies: [], lost: 0, lastAt: 0, reads: 0 }));
const open = count ? rawClient : client;
Promise.all(urls.flatMap((url, u) => Array.from({ length: clients }, () => open(url, sets[u])))).then(
  () => {
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    const results = sets.map(({ latencies, lost, lastAt, reads }) => {
      latencies.sort((a, b) => a - b);
      return { p50: rank(latencies, 0.5), p99: rank(latencies, 0.99), max: latencies.at(-1), lost, lastAt, cpuMs, reads };
    });
    // No client hangs up before the parent has read the servers' CPU time and kills this process: a client that
    // hung up as soon as it had its events made the server handle up to 200 disconnects inside the measured burst
    // (per connection, not per event, and heavier in a server with more per-connection state).
    send({ results });
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
