// Shared fixtures for the agent tests: file-like tools, an event recorder, hook recorders.
import { z } from 'zod';
import { createHost } from '../../host/host.js';
import type { HostOptions } from '../../host/host-options.js';
import type { Session } from '../../host/agent/session.js';
import type { HostEvent, HostEventOf, HostEventType } from '../../host/events/types.js';
import type { HookCallback, HookEventName, HookInput } from '../../host/hooks/types.js';
import { tool } from '../../host/tools/define.js';
import { eventGrammarViolations } from '../../host/events/grammar.js';

/** Read fails for paths containing "missing"; Write always succeeds. */
export const fileTools = () => [
  tool('Read', 'Read a file', z.object({ file_path: z.string() }), async ({ file_path }) =>
    file_path.includes('missing') ? { content: `ENOENT: ${file_path}`, isError: true } : `contents of ${file_path}`,
  ),
  tool('Write', 'Write a file', z.object({ file_path: z.string(), content: z.string() }), async ({ file_path, content }) =>
    `wrote ${content.length} bytes to ${file_path}`,
  ),
];

/** A 200-token window compacted at half full, keeping the last turn: two tool turns fill it (compaction tests). */
export const SMALL_WINDOW = { cwd: '/proj', permissionMode: 'bypassPermissions', contextWindow: 200, autoCompact: 0.5, keepTurns: 1 } as const satisfies HostOptions;

export function host(options: HostOptions = {}) {
  return createHost({ tools: fileTools(), cwd: '/proj', ...options });
}

/** Runs a prompt through stream() and returns every event. */
export async function collect(session: Session, prompt: string, signal?: AbortSignal): Promise<HostEvent[]> {
  const events: HostEvent[] = [];
  for await (const e of session.stream(prompt, signal ? { signal } : {})) events.push(e);
  const broken = eventGrammarViolations(events);
  if (broken.length > 0) throw new Error(`grammar: ${JSON.stringify(broken)}\n${events.map((e) => e.type + (e.type === 'hook.start' || e.type === 'hook.end' ? ' ' + e.event : '')).join(' | ')}`);
  return events;
}

export const ofType = <K extends HostEventType>(events: HostEvent[], type: K) =>
  events.filter((e): e is HostEventOf<K> => e.type === type);

export const endResult = (events: HostEvent[]) => {
  const last = events[events.length - 1];
  if (last?.type !== 'agent.end') throw new Error(`the last event is ${last?.type}, not agent.end`);
  return last.result;
};

/** A hook that records its inputs and answers `output` (or continue). */
export function recorder(output: Awaited<ReturnType<HookCallback>> = {}) {
  const calls: HookInput[] = [];
  const fn: HookCallback = async (input) => {
    calls.push(input);
    return output;
  };
  return { calls, fn };
}

/** Records every hook event name in order, for the given events. */
export function orderRecorder(events: readonly HookEventName[]) {
  const order: string[] = [];
  const hooks = Object.fromEntries(
    events.map((e) => [e, [{ hooks: [async () => (order.push(e), {})] }]]),
  ) as HostOptions['hooks'];
  return { order, hooks };
}

export const deferred = <T = void>() => {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};
