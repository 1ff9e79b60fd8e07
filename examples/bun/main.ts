// Embedding wasmhooks in a Bun app: the same host as on Node and Deno,
// imported from the built package; this one renders a compact log keyed by
// the event sequence number, then a summary of every tool call.
// Run: bun run examples/bun/main.ts   (after npm run build && npm run build:plugins)
import { z } from 'zod';
import { createHost, loadPlugin, scriptedModel, tool } from '../../dist/index.js';

const wasm = new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url);
const guard = await loadPlugin({ bytes: new Uint8Array(await Bun.file(wasm).arrayBuffer()) });

// A pretend shell: nothing touches the disk, the guard screens every command.
const bash = tool('Bash', 'Runs a shell command (simulated).', z.object({ command: z.string() }), ({ command }) =>
  command === 'ls' ? 'bun.lock index.ts' : `ran: ${command}`,
);

const model = scriptedModel({
  turns: [
    { text: 'Listing, then wiping the build output.', toolCalls: [{ name: 'Bash', input: { command: 'ls' } }, { name: 'Bash', input: { command: 'rm -rf /' } }] },
    { text: 'Listed the files; the wipe was refused, so nothing changed.' },
  ],
});

const host = createHost({ model, tools: [bash], plugins: [guard] });

// Per call: the command, what the hooks said, how it ended — filled in as the
// events arrive, printed as a summary once the prompt is over.
const calls = new Map<string, { command: string; hooks: string[]; outcome: string }>();

for await (const e of host.session().stream('Clean the build output.')) {

  if (e.type === 'text.delta') process.stdout.write(e.text);
  else if (e.type === 'message.end') process.stdout.write('\n');
  else if (e.type === 'tool.call') calls.set(e.toolUseId, { command: String((e.input as { command?: unknown }).command), hooks: [], outcome: 'pending' });
  else if (e.type === 'hook.end' && e.toolUseId) calls.get(e.toolUseId)?.hooks.push(`${e.hookName}=${e.decision} (${e.durationMs.toFixed(1)} ms)`);
  else if (e.type === 'tool.output') calls.get(e.toolUseId)!.outcome = `ok: ${e.content}`;
  else if (e.type === 'tool.denied') calls.get(e.toolUseId)!.outcome = `denied: ${e.reason}`;
  else if (e.type === 'agent.end') console.log(`#${e.seq} end: ${e.result.subtype}, ${e.result.turns} model calls`);
}

console.log('\ntool calls:');
for (const c of calls.values()) console.log(`  $ ${c.command}  [${c.hooks.join(', ')}]\n    ${c.outcome}`);
await guard.close();
