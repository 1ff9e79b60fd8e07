// Every output hook reviews the text the conversation keeps (red42). Two ways round it, each shown with
// the first-party secret-redactor (its built .wasm) and a tool whose output holds an API key:
// - A PostToolUse `stop` ended the chain, so an output hook after it never ran: the tool's raw output went
//   into the conversation (the next prompt's model request), `tool.output` and the transcript. One hook's
//   stop (a stranger's plugin, a JS hook's Claude-style `continue: false`) undid another's redaction.
// - secret-redactor bound PostToolUse only: a failed call's text (Bash's stdout before a non-zero exit, an
//   MCP `isError` result, a plugin tool's `is_error`) reached the model as the tool printed it.
// Written against an Api (host/ under vitest: red42.output-review.test.ts; dist/ on Node, Deno and Bun:
// test/xrt/red42-output-review.xrt.ts). Returns what is wrong.
import { fileURLToPath } from 'node:url';
import type { createHost as CreateHost, HostEvent, loadPlugin as LoadPlugin, scriptedModel as ScriptedModel, ToolHandler } from '../../host/index.js';
import { wire } from '../fixtures/guard-wire.ts';
import { field } from '../xrt/wat.ts';

export interface OutputReviewApi {
  createHost: typeof CreateHost;
  loadPlugin: typeof LoadPlugin;
  scriptedModel: typeof ScriptedModel;
  /** test/fixtures/canned.ts: a plugin whose exports answer fixed bytes. */
  cannedPlugin: (outputs: Record<string, Uint8Array | null>) => Uint8Array;
  /** The bytes of plugins/secret-redactor/build/secret-redactor.wasm. */
  redactor: Uint8Array;
}

// Built at run time so no scanner mistakes the fixture for a real key.
const KEY = `sk-proj-${'Ab3dEf6hIj'.repeat(4)}`;
const REDACTED = 'OPENAI_API_KEY=[REDACTED:openai-key]';

/** A plugin with one PostToolUse binding on every tool that answers `stop`. */
const stopperWasm = (api: OutputReviewApi): Uint8Array =>
  api.cannedPlugin({
    describe: wire(field(1, 'stopper'), field(2, '1.0.0'), field(3, 1), field(4, wire(field(1, 8)))),
    hook: wire(field(1, 5), field(2, 'enough for now')),
  });

/** `Bash`, answering the key (as an error result when `failed`: stdout, then the exit line). */
function bash(failed: boolean): ToolHandler {
  return {
    name: 'Bash',
    description: 'Run a command',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    kind: 'js',
    run: async () => (failed ? { content: `OPENAI_API_KEY=${KEY}\n(exit 1)`, isError: true } : { content: `OPENAI_API_KEY=${KEY}`, isError: false }),
  };
}

async function collect(stream: AsyncIterable<HostEvent>): Promise<HostEvent[]> {
  const events: HostEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

/** Where the key shows in a prompt's events and the model requests: every place is a leak. */
function leaks(what: string, events: readonly HostEvent[], requests: readonly string[], problems: string[]): void {
  for (const e of events) {
    if (e.type === 'tool.output') {
      if (e.content.includes(KEY)) problems.push(`${what}: tool.output carries the key: ${JSON.stringify(e.content)}`);
      else if (!e.content.includes(REDACTED)) problems.push(`${what}: tool.output is not the redacted text: ${JSON.stringify(e.content)}`);
    }
  }
  if (!events.some((e) => e.type === 'hook.end' && e.hookName === 'secret-redactor')) problems.push(`${what}: secret-redactor never ran`);
  for (const r of requests) if (r.includes(KEY)) problems.push(`${what}: a model request carries the key`);
}

/**
 * A PostToolUse `stop` before the redactor (a WASM plugin's, then a JS hook's `continue: false`): the turn
 * still ends (stoppedBy names the stopper), and the redactor still rewrites the output the conversation keeps.
 */
export async function stopBeforeRedactor(api: OutputReviewApi): Promise<string[]> {
  const problems: string[] = [];
  for (const stopper of ['wasm', 'js'] as const) {
    const plugins = [...(stopper === 'wasm' ? [await api.loadPlugin({ bytes: stopperWasm(api) })] : []), await api.loadPlugin({ bytes: api.redactor })];
    try {
      const requests: string[] = [];
      const host = api.createHost({
        plugins,
        // The `hooks` option runs before the plugins: this one stops first.
        ...(stopper === 'js' ? { hooks: { PostToolUse: [{ name: 'stopper', hooks: [async () => ({ continue: false, stopReason: 'enough for now' })] }] } } : {}),
        permissionMode: 'bypassPermissions',
        tools: [bash(false)],
        model: api.scriptedModel({
          turns: [
            { toolCalls: [{ name: 'Bash', input: { command: 'cat .env' } }] },
            (request) => {
              requests.push(JSON.stringify(request.messages));
              return { text: 'done' };
            },
          ],
        }),
      });
      const session = host.session();
      const first = await collect(session.stream('show .env'));
      const end = first.at(-1);
      const stoppedBy = end?.type === 'agent.end' ? end.result.stoppedBy : undefined;
      if (stoppedBy?.event !== 'PostToolUse' || !stoppedBy.hookName.startsWith('stopper') || stoppedBy.reason !== 'enough for now') {
        problems.push(`${stopper}: the prompt did not end stopped by the stopper: ${JSON.stringify(end)}`);
      }
      // The stop ended the turn: the conversation reaches a model at the next prompt.
      const second = await collect(session.stream('go on'));
      if (requests.length !== 1) problems.push(`${stopper}: ${requests.length} model requests after the stop, wanted 1`);
      leaks(stopper, [...first, ...second], requests, problems);
      await session.close();
    } finally {
      for (const p of plugins) await p.close();
    }
  }
  return problems;
}

/** An MCP server (a real process, test/fixtures/mcp/raw-server.mjs) whose tool `fails` answers `isError` with this text. */
const leakyServer = (text: string) => ({ leaky: { command: 'node', args: [fileURLToPath(new URL('../fixtures/mcp/raw-server.mjs', import.meta.url))], env: { FAIL_TEXT: text } } });

/**
 * A failed call's text is redacted as a successful call's output is, and stays an error: Bash's stdout before
 * `exit 1` (a JS tool), and an MCP tool's `isError` result (a real server process).
 */
export async function failedCallRedacted(api: OutputReviewApi): Promise<string[]> {
  const problems: string[] = [];
  for (const source of ['bash', 'mcp'] as const) {
    const redactor = await api.loadPlugin({ bytes: api.redactor });
    const tool = source === 'bash' ? 'Bash' : 'mcp__leaky__fails';
    const requests: string[] = [];
    const host = api.createHost({
      plugins: [redactor],
      permissionMode: 'bypassPermissions',
      ...(source === 'bash' ? { tools: [bash(true)] } : { mcpServers: leakyServer(`OPENAI_API_KEY=${KEY}\n(exit 1)`) }),
      model: api.scriptedModel({
        turns: [
          { toolCalls: [{ name: tool, input: source === 'bash' ? { command: 'cat .env; exit 1' } : {} }] },
          (request) => {
            requests.push(JSON.stringify(request.messages));
            return { text: 'done' };
          },
        ],
      }),
    });
    try {
      const events = await collect(host.session().stream('show .env'));
      if (requests.length !== 1) problems.push(`${source}: ${requests.length} model requests, wanted 1`);
      leaks(source, events, requests, problems);
      const output = events.find((e) => e.type === 'tool.output');
      if (output?.type !== 'tool.output' || !output.isError || !output.content.includes('(exit 1)')) {
        problems.push(`${source}: the failed call's result is not an error with its exit line: ${JSON.stringify(output)}`);
      }
    } finally {
      await host.close();
      await redactor.close();
    }
  }
  return problems;
}
