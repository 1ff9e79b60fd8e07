// A Bun HTTP app: the wasmhooks server mounted in Bun.serve, then a tiny
// client (plain fetch) that drives one session over HTTP: create it, watch its
// SSE stream, send a prompt, answer the permission question, exit at agent.end.
// Run: bun run examples/bun-http/main.ts   (after npm run build && npm run build:plugins)
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { z } from 'zod';
import { createHost, loadPlugin, scriptedModel, tool } from '../../dist/index.js';
import { createServer, type StreamEvent } from '../../dist/server.js';

// The repo type-checks with Node's types only; this is the slice of Bun we use.
declare const Bun: {
  file(url: URL): { arrayBuffer(): Promise<ArrayBuffer> };
  serve(o: { hostname: string; port: number; idleTimeout: number; fetch: (r: Request) => Response | Promise<Response> }): { port: number; stop(): void };
};

const guard = await loadPlugin({ bytes: new Uint8Array(await Bun.file(new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url)).arrayBuffer()) });
const bash = tool('Bash', 'Runs a shell command (simulated).', z.object({ command: z.string() }), ({ command }) => `ran: ${command}`);
// Not in allowedTools and not screened by the guard: the host asks permission,
// which over HTTP becomes a control.request event for the client to answer.
const write = tool('Write', 'Writes a file (simulated).', z.object({ path: z.string() }), ({ path }) => `wrote ${path}`);
const model = scriptedModel({
  turns: [
    { toolCalls: [{ name: 'Bash', input: { command: 'ls' } }, { name: 'Bash', input: { command: 'rm -rf /' } }, { name: 'Write', input: { path: 'notes.txt' } }] },
    { text: 'Listed, refused to wipe, wrote notes.txt.' },
  ],
});
const host = createHost({ model, tools: [bash, write], plugins: [guard], allowedTools: ['Bash'] });

// --- server: the hono app's fetch handler in Bun.serve (idleTimeout 0 keeps SSE open) ---
const token = crypto.randomUUID(); // any secret of 16+ characters
const server = createServer(host, { token });
const bun = Bun.serve({ hostname: '127.0.0.1', port: 0, idleTimeout: 0, fetch: server.fetch });
const base = `http://127.0.0.1:${bun.port}`;
console.log(`serving on ${base}`);

// --- client: nothing below knows it shares a process with the server ---
const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
const post = async (path: string, body: unknown) => (await fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) })).json();

const session = (await post('/session', { title: 'bun-http example' })) as { id: string };
const sse = await fetch(`${base}/event?session=${session.id}`, { headers });
const frames = sse.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());

// A reader loop, not for-await: the DOM typings of ReadableStream lack async iteration.
const reader = frames.getReader();
for (let next = await reader.read(); !next.done; next = await reader.read()) {
  const e = JSON.parse(next.value.data) as StreamEvent; // host events and server events, one union on `type`
  // Send the prompt once the stream is open, so no event comes before we listen.
  if (e.type === 'server.connected') console.log('prompt sent:', JSON.stringify(await post(`/session/${session.id}/prompt`, { prompt: 'Tidy up and take notes.' })));
  else if (e.type === 'control.request' && e.subtype === 'can_use_tool') {
    console.log(`asked: may ${e.payload.toolName} run with ${JSON.stringify(e.payload.input)}? answering allow`);
    await post(`/session/${session.id}/control-response`, { requestID: e.id, subtype: e.subtype, response: { behavior: 'allow' } });
  } else if (e.type === 'hook.end' && e.toolUseId) console.log(`hook ${e.hookName}: ${e.decision}`);
  else if (e.type === 'tool.output') console.log(`${e.name} → ${e.content}`);
  else if (e.type === 'tool.denied') console.log(`${e.name} denied: ${e.reason}`);
  else if (e.type === 'agent.end') {
    console.log(`result: ${e.result.subtype}: ${e.result.text}`);
    break;
  }
}

await server.close();
bun.stop();
await guard.close();
