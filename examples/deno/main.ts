// Embedding wasmhooks in a Deno app: the same host as on Node, imported from
// the built package, with a small formatter that turns each event into a line.
// Run: deno run -A examples/deno/main.ts   (after npm run build && npm run build:plugins)
import { z } from 'zod';
// Deno does not look for index.d.ts beside index.js by itself; this points `deno check` at it.
// @ts-types="../../dist/index.d.ts"
import { createHost, loadPlugin, scriptedModel, tool, type HostEvent } from '../../dist/index.js';

const guard = await loadPlugin({ bytes: await Deno.readFile(new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url)) });

// A pretend shell; the guard denies destructive commands before it runs.
const bash = tool('Bash', 'Runs a shell command (simulated).', z.object({ command: z.string() }), ({ command }) =>
  command === 'ls' ? 'deno.json  main.ts' : `ran: ${command}`,
);

const model = scriptedModel({
  turns: [
    { text: 'Checking the folder before I clean it.', toolCalls: [{ name: 'Bash', input: { command: 'ls' } }, { name: 'Bash', input: { command: 'rm -rf /' } }] },
    { text: 'Done: two files, nothing removed.' },
  ],
});

const host = createHost({ model, tools: [bash], plugins: [guard] });

// One formatter, one switch: text is buffered into whole messages, hook
// decisions print as they happen, and every call ends as ok or denied.
let text = '';
function format(e: HostEvent): string | undefined {
  switch (e.type) {
    case 'text.delta': text += e.text; return undefined;
    case 'message.end': { const line = `💬 ${text}`; text = ''; return line; }
    case 'hook.end': return e.toolUseId ? `   ${e.event} ${e.hookName} → ${e.decision}` : undefined;
    case 'tool.output': return `🔧 ${e.name} ok: ${e.content.replaceAll('\n', ' ')}`;
    case 'tool.denied': return `⛔ ${e.name} denied (${e.source}): ${e.reason}`;
    case 'agent.end': return `🏁 ${e.result.subtype}: ${e.result.text}`;
    default: return undefined;
  }
}

for await (const event of host.session().stream('Clean up the folder.')) {
  const line = format(event);
  if (line !== undefined) console.log(line);
}
await guard.close();
