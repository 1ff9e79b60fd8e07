// A server on this runtime whose one SSE reader stops reading and is dropped as a slow client; prints
// `dropped` once the hub let it go, then reads again until the runtime closes the connection. server-hardening.xrt.ts runs it and checks the process's stderr.
import net from 'node:net';
import { createHost, scriptedModel } from '../../dist/index.js';
import { createServer } from '../../dist/server.js';

const server = createServer(createHost({ model: scriptedModel({ turns: [{ text: 'hi' }] }) }), { port: 0, clientQueueBytes: 64 * 1024 });
const { port } = await server.listen();
const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /event HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
socket.on('error', () => {});
await new Promise((resolve) => socket.once('data', resolve));
socket.pause();
const text = 'x'.repeat(8 * 1024);
for (let n = 0; n < 5000 && server.hub.clientCount === 1; n++) {
  server.hub.publish({ type: 'text.delta', sessionId: 's', seq: n, time: 0, text });
  if (n % 4 === 3) await new Promise((r) => setTimeout(r, 1));
}
console.log(server.hub.clientCount === 0 ? 'dropped' : 'not dropped');
// The peer reads again: the runtime takes up the dropped stream (where Bun printed its error) and closes it.
const closed = new Promise((resolve) => socket.once('close', resolve));
socket.resume();
await Promise.race([closed, new Promise((r) => setTimeout(r, 10_000))]);
await server.close();
process.exit(0);
