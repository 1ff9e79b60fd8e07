// The real host with the scripted model: "tool" prompts call Write (which needs
// permission), "wait" prompts call Sleep (allowed; runs until aborted), anything
// else is echoed. A JS PreToolUse hook named "audit" makes hook.end events.
// "ask" prompts call Ask, which asks the user through `asker.elicit` (set it to
// a server's `elicit`) and returns the answer.
import { z } from 'zod';
import { createHost, type Host } from '../../host/host.js';
import type { HostOptions } from '../../host/host-options.js';
import { scriptedModel } from '../../host/models/scripted.js';
import type { ModelRequest } from '../../host/models/types.js';
import { tool } from '../../host/tools/define.js';
import { loadPlugin, type WasmPlugin } from '../../host/plugins/index.js';
import { encodePluginInfo } from '../../host/protocol/pb-codec.js';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';
import { cannedPlugin } from '../fixtures/canned.js';
import type { WasmhooksServer } from '../../host/server/app.js';

const lastUser = (request: ModelRequest) => {
  const last = request.messages.findLast((m) => m.role === 'user');
  return last?.role === 'user' ? last.content : '';
};

/** Where the Ask tool sends its question: assign a server's `elicit`. */
export const asker: { elicit?: WasmhooksServer['elicit'] } = {};

export function realHost(options: Partial<HostOptions> = {}): Host {
  const model = scriptedModel({
    rules: [
      { when: { lastToolName: 'Write' }, reply: { text: 'Done writing.' } },
      { when: { lastToolName: 'Sleep' }, reply: { text: 'Woke up.' } },
      { when: { lastToolName: 'Ask' }, reply: { text: 'Thanks for answering.' } },
      { when: { lastUser: 'ask' }, reply: { toolCalls: [{ name: 'Ask', input: { question: 'Which file?' } }] } },
      { when: { lastUser: 'tool' }, reply: { text: 'Writing the file.', toolCalls: [{ name: 'Write', input: { path: 'notes.txt', text: 'hi' } }] } },
      { when: { lastUser: 'wait' }, reply: { toolCalls: [{ name: 'Sleep', input: {} }] } },
      { when: () => true, reply: (request) => ({ text: `echo: ${lastUser(request)}` }) },
    ],
  });
  const write = tool('Write', 'Write a file', z.object({ path: z.string(), text: z.string() }), ({ path }) => `wrote ${path}`);
  const sleep = tool(
    'Sleep',
    'Wait until aborted',
    z.object({}),
    ({}, ctx) => new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => resolve('aborted'), { once: true })),
  );
  const ask = tool('Ask', 'Ask the user', z.object({ question: z.string() }), async ({ question }, ctx) => {
    if (!asker.elicit) return { content: 'nobody to ask', isError: true };
    const schema = { type: 'object', properties: { file: { type: 'string', title: 'File name' } }, required: ['file'] };
    const answer = await asker.elicit(ctx.sessionId, { message: question, schema }, { signal: ctx.signal });
    return `answer: ${JSON.stringify(answer)}`;
  });
  return createHost({
    model,
    tools: [write, sleep, ask],
    allowedTools: ['Sleep', 'Ask'],
    hooks: { PreToolUse: [{ name: 'audit', hooks: [async () => ({})] }] },
    ...options,
  });
}

/**
 * A real WASM guard (a canned Extism plugin) bound to PreToolUse on Write that
 * always answers "continue", so the call still reaches the permission question.
 */
async function cannedGuard(): Promise<WasmPlugin> {
  const v1 = wasmhooks.v1;
  const bytes = cannedPlugin({
    describe: encodePluginInfo({
      name: 'write-guard',
      version: '0.3.0',
      protocolVersion: 1,
      hooks: [{ event: v1.HookEvent.HOOK_EVENT_PRE_TOOL_USE, matcher: 'Write' }],
    }),
    hook: v1.HookResponse.encode({ decision: v1.Decision.DECISION_CONTINUE, reason: 'looks fine' }).finish(),
  });
  return loadPlugin({ bytes: new Uint8Array(bytes) });
}

/** The real host with the guard in use, exposing it as `plugins` (the host has no plugin list yet). */
export async function hostWithGuard(): Promise<Host & { plugins: WasmPlugin[] }> {
  const guard = await cannedGuard();
  const host = realHost();
  host.use(guard);
  return Object.assign(host, { plugins: [guard] });
}
