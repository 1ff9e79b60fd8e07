// Hostile interleavings for the event grammar (host/events/grammar.ts): each scenario runs one
// or more prompts and returns their streams, which must all satisfy the grammar. Written against
// an `Api` (the sources under vitest, dist/ under Node, Deno and Bun: test/xrt/conformance.xrt.ts),
// so only type imports from host/ here.
import type { createHost as CreateHost, scriptedModel as ScriptedModel } from '../../host/index.js';
import type { HookCallback, HostEvent, HostOptions, Model, ModelEvent, Session, ToolHandler } from '../../host/index.js';

export interface Api {
  createHost: typeof CreateHost;
  scriptedModel: typeof ScriptedModel;
}

/** One stream to check: its name (for the message), its events, and the grammar's span. */
export interface Stream {
  name: string;
  events: HostEvent[];
  span?: 'prompt' | 'session';
}

const schema = { type: 'object', properties: { tag: { type: 'string' } } };
const settle = () => new Promise<void>((r) => setTimeout(r, 0));

/** A tool that reports progress and answers on the next tick; `tag` "fail" is an error result, "throw" throws. */
export function stepTool(name: string, readOnly: boolean): ToolHandler {
  return {
    name,
    description: `${name} (a test tool)`,
    inputSchema: schema,
    kind: 'js',
    concurrencySafe: readOnly,
    run: async (input, ctx) => {
      ctx.onProgress?.(`${name} working`);
      await Promise.resolve();
      if (input.tag === 'throw') throw new Error(`${name} blew up`);
      ctx.onProgress?.(`${name} almost`);
      return { content: `${name}:${String(input.tag)}`, isError: input.tag === 'fail' };
    },
  };
}

/** A model from a list of raw event lists, one per call (malformed ones included); `throwAt` throws instead of the event at that place. */
export function rawModel(calls: (ModelEvent | 'throw')[][]): Model {
  let n = 0;
  return {
    id: 'raw',
    async *stream() {
      const events = calls[n++] ?? [{ type: 'error', error: { code: 'SCRIPT_EXHAUSTED', message: 'no more calls' } }];
      for (const e of events) {
        await Promise.resolve();
        if (e === 'throw') throw new Error('the provider stream broke');
        yield e;
      }
    },
  };
}

const observe: HookCallback = async () => ({});
const EVERY_EVENT = ['SessionStart', 'UserPromptSubmit', 'IterationStart', 'PreCompact', 'PostCompact', 'PreToolBatch', 'PreToolUse', 'PermissionRequest', 'Notification', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Stop', 'StopFailure', 'Error', 'SubagentStart', 'SubagentStop'] as const;

/** An observer on every event a prompt fires, plus `extra`. */
function everyHook(extra: HostOptions['hooks'] = {}): HostOptions['hooks'] {
  const hooks: Record<string, unknown[]> = {};
  for (const e of EVERY_EVENT) hooks[e] = [{ hooks: [observe] }];
  for (const [e, groups] of Object.entries(extra ?? {})) hooks[e] = [...(hooks[e] ?? []), ...(groups as unknown[])];
  return hooks as HostOptions['hooks'];
}

/**
 * The rich session: auto-compaction before the second model call, a parallel read-only batch with
 * an error result and a throw, a call that needs the app's permission, a sub-agent, a Stop block.
 */
export function richHost(api: Api, extra: Partial<HostOptions> = {}) {
  let stopBlocks = 0;
  const model = api.scriptedModel({
    contextWindow: 400,
    turns: [
      {
        thinking: 'plan the work',
        text: 'Looking at a few things first, then changing one.',
        usage: { inputTokens: 390 },
        toolCalls: [
          { name: 'Look', id: 'l1', input: { tag: 'a' } },
          { name: 'Look', id: 'l2', input: { tag: 'fail' } },
          { name: 'Look', id: 'l3', input: { tag: 'throw' } },
          { name: 'Change', id: 'c1', input: { tag: 'x' } },
          { name: 'Look', id: 'l4', input: 'not an object' as unknown as Record<string, unknown> },
        ],
      },
      { text: 'SUMMARY of the work so far' },
      { toolCalls: [{ name: 'agent', id: 'ag', input: { subagent_type: 'looker', prompt: 'look at b' } }] },
      { toolCalls: [{ name: 'Look', id: 'sl1', input: { tag: 'b' } }] },
      { text: 'b looks fine' },
      { text: 'All done.' },
      { text: 'Really done.' },
    ],
  });
  const host = api.createHost({
    model,
    cwd: '/proj',
    tools: [stepTool('Look', true), stepTool('Change', false)],
    agents: { looker: { description: 'looks', systemPrompt: 'look', tools: ['Look'] } },
    allowedTools: ['Look', 'agent'],
    keepTurns: 1,
    canUseTool: async () => ({ behavior: 'allow' }),
    hooks: everyHook({
      // Blocks the first stop once (the top level's only: a sub-agent fires SubagentStop instead).
      Stop: [{ hooks: [async () => (stopBlocks++ === 0 ? { decision: 'block', reason: 'check again' } : {})] }],
    }),
    ...extra,
  });
  return { host, model };
}

/** Collects a prompt's stream; `onEvent` may abort the session or return true to stop reading (break). */
export async function collect(session: Session, prompt: string, onEvent?: (e: HostEvent, n: number) => boolean | void): Promise<HostEvent[]> {
  const events: HostEvent[] = [];
  for await (const e of session.stream(prompt)) {
    events.push(e);
    if (onEvent?.(e, events.length) === true) break;
  }
  return events;
}

/** Every event a session's subscriber sees until `done` settles and the bus drained. */
export async function subscribed<T>(session: Session, run: () => Promise<T>): Promise<HostEvent[]> {
  const events: HostEvent[] = [];
  const off = session.subscribe((e) => void events.push(e));
  try {
    await run();
    await settle();
  } finally {
    off();
  }
  return events;
}

export { settle };
