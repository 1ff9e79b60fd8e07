// Embedding wasmhooks in a plain Node app: one WASM guard, one JS tool, the
// offline scripted model, and our own tiny renderer of the event stream.
// Run: npm run build && npm run build:plugins && node examples/node/main.mjs
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { createHost, loadPlugin, scriptedModel, tool } from '../../dist/index.js';

// Resolve relative to this file so the example runs from any folder.
const wasm = new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url);
const guard = await loadPlugin({ bytes: await readFile(wasm) });

// A pretend shell: the guard must stop `rm -rf /` before it would ever get here.
const bash = tool('Bash', 'Runs a shell command (simulated).', z.object({ command: z.string() }), ({ command }) =>
  command === 'ls' ? 'README.md\nsrc/\n' : `ran: ${command}`,
);

// The scripted model plays these turns in order: no API key, no network.
const model = scriptedModel({
  turns: [
    { text: 'Let me look around, then clean up.', toolCalls: [{ name: 'Bash', input: { command: 'ls' } }, { name: 'Bash', input: { command: 'rm -rf /' } }] },
    { text: 'The workspace holds a README and src/; I left everything in place.' },
  ],
});

const host = createHost({ model, tools: [bash], plugins: [guard] });

// Hook decisions arrive before the call's outcome; keep them per tool call
// so each call prints as one line once we know how it ended.
const decisions = new Map();
const callLine = (id, name, input) => `${name}(${JSON.stringify(input)}) [${(decisions.get(id) ?? []).join(', ') || 'no hooks'}]`;
const inputs = new Map();

for await (const event of host.session().stream('Tidy up the workspace.')) {
  switch (event.type) {
    case 'text.delta': process.stdout.write(event.text); break;
    case 'message.end': process.stdout.write('\n'); break;
    case 'tool.call': inputs.set(event.toolUseId, event.input); break;
    case 'hook.end':
      if (event.toolUseId) decisions.set(event.toolUseId, [...(decisions.get(event.toolUseId) ?? []), `${event.hookName}: ${event.decision}`]);
      break;
    case 'tool.output': console.log(`  ✓ ${callLine(event.toolUseId, event.name, inputs.get(event.toolUseId))} → ${event.content.trim().split('\n').join(' | ')}`); break;
    case 'tool.denied': console.log(`  ✗ ${callLine(event.toolUseId, event.name, inputs.get(event.toolUseId))} DENIED: ${event.reason}`); break;
    case 'agent.end': console.log(`result: ${event.result.subtype} after ${event.result.turns} turns`); break;
  }
}
await guard.close();
