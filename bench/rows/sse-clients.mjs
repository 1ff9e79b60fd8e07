// The SSE clients of bench/rows/sse.ts, in a process of their own (so the
// server's process CPU time is the server's alone): `clients` streams of
// `url`, each parsing frames until it has `events` text.delta events, with
// the publish→delivery latency of each. Messages to the parent: { ready },
// then { latencies, lost }. Arguments: one JSON object { url, clients, events }.
const { url, clients, events } = JSON.parse(process.argv[2]);
const now = () => performance.timeOrigin + performance.now();
const latencies = [];
let lost = 0;
let connected = 0;

async function client() {
  const res = await fetch(url);
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  let got = 0;
  let expect = 0;
  if (++connected === clients) process.send({ ready: true });
  while (got < events) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const at = block.indexOf('data: ');
      if (at < 0) continue;
      const e = JSON.parse(block.slice(at + 6));
      if (e.type !== 'text.delta') continue;
      latencies.push(now() - e.time);
      if (e.seq !== expect) lost += e.seq - expect;
      expect = e.seq + 1;
      got++;
    }
  }
  lost += events - got;
  await reader.cancel().catch(() => {});
}

Promise.all(Array.from({ length: clients }, client)).then(
  () => process.send({ latencies, lost }, () => process.exit(0)),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
