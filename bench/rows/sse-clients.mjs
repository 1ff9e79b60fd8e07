// The SSE clients of bench/rows/sse.ts, always a Node process of their own (the same load generator
// for every runtime's server, and the server's process CPU time is the server's alone): `clients`
// streams of each URL in `urls`, on node:http (light, so the clients' own stalls stay small), each
// parsing frames until it has `events` text.delta events, with the publish→delivery latency of each
// (with `count`, for throughput runs, only each frame's seq is read: no latencies).
// Argument: one JSON object { urls, clients, events, count? }. Prints JSON lines: {"ready":true}, then
// {"results":[{ p50, p99, max, lost, lastAt }, …]} in the order of `urls` (lastAt: when the last
// event reached the last client, wall clock in ms).
import { request } from 'node:http';

const { urls, clients, events, count = false } = JSON.parse(process.argv[2]);
const now = () => performance.timeOrigin + performance.now();
const send = (m) => process.stdout.write(`${JSON.stringify(m)}\n`);
let connected = 0;

function client(url, into) {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      res.setEncoding('utf8');
      let buf = '';
      let got = 0;
      let expect = 0;
      if (++connected === clients * urls.length) send({ ready: true });
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        into.lost += events - got;
        res.destroy();
        resolve();
      };
      res.on('data', (text) => {
        buf += text;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const at = block.indexOf('data: ');
          if (at < 0) continue;
          let seq;
          const t = now();
          if (count) {
            // Throughput runs: the frame's seq is all that is read (JSON.parse of every frame made the clients the bottleneck).
            const s = block.indexOf('"seq":', at);
            if (s < 0 || !block.includes('"type":"text.delta"', at)) continue;
            seq = Number.parseInt(block.slice(s + 6, s + 18), 10);
          } else {
            const e = JSON.parse(block.slice(at + 6));
            if (e.type !== 'text.delta') continue;
            into.latencies.push(t - e.time);
            seq = e.seq;
          }
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

const rank = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
const sets = urls.map(() => ({ latencies: [], lost: 0, lastAt: 0 }));
Promise.all(urls.flatMap((url, u) => Array.from({ length: clients }, () => client(url, sets[u])))).then(
  () => {
    const results = sets.map(({ latencies, lost, lastAt }) => {
      latencies.sort((a, b) => a - b);
      return { p50: rank(latencies, 0.5), p99: rank(latencies, 0.99), max: latencies.at(-1), lost, lastAt };
    });
    process.stdout.write(`${JSON.stringify({ results })}\n`, () => process.exit(0));
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
