// Shared expectations of the conformance traces (trace.test.ts, trace-ends.test.ts): a prompt's
// events keep the grammar (host/events/grammar.ts) and give the promised trace; the model turn of
// two Read calls; hooks that wait for an abort.
import { expect } from 'vitest';
import type { HostEvent } from '../../host/events/types.js';
import type { HookCallback } from '../../host/hooks/types.js';
import type { Session } from '../../host/agent/session.js';
import { eventGrammarViolations } from '../../host/events/grammar.js';
import { collect } from './helpers.js';
import { trace, violationLines } from './trace.js';

export const brokenInvariants = (events: readonly HostEvent[]) => violationLines(eventGrammarViolations(events));

export const twoReads = { toolCalls: [{ name: 'Read', id: 'r1', input: { file_path: 'a' } }, { name: 'Read', id: 'r2', input: { file_path: 'b' } }] };
export const MODEL_TURN = ['message.start', 'tool.input.delta*', 'tool.call Read r1', 'tool.input.delta*', 'tool.call Read r2', 'message.end tool_use'];
/** An observer; made by a factory so that it has no name of its own (its hook is `js#<n>`). */
export const noop = (): HookCallback => async () => ({});

export function expectTrace(events: HostEvent[], want: string[]): void {
  expect(brokenInvariants(events)).toEqual([]);
  expect(trace(events)).toEqual(want);
}
/** A hook that waits for the prompt's abort, resolving `reached` when it starts. */
export function hangingHook(reached: () => void): HookCallback {
  return (_i, _id, { signal }) => {
    reached();
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve({})));
  };
}

/** Starts the prompt, aborts once `reached` resolves, and returns its events. */
export async function abortedAt(session: Session, reached: Promise<void>): Promise<HostEvent[]> {
  const running = collect(session, 'go');
  await reached;
  session.abort();
  return running;
}
