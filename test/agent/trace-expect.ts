// What the conformance traces (trace.test.ts, trace-ends.test.ts) share: the scripted model turn
// they start from and the check every trace gets (the invariants, then the promised order).
import { expect } from 'vitest';
import type { HostEvent } from '../../host/events/types.js';
import type { HookCallback } from '../../host/hooks/types.js';
import { brokenInvariants, trace } from './trace.js';

export const twoReads = { toolCalls: [{ name: 'Read', id: 'r1', input: { file_path: 'a' } }, { name: 'Read', id: 'r2', input: { file_path: 'b' } }] };
export const MODEL_TURN = ['message.start', 'tool.input.delta*', 'tool.call Read r1', 'tool.input.delta*', 'tool.call Read r2', 'message.end tool_use'];
/** An observer; made by a factory so that it has no name of its own (its hook is `js#<n>`). */
export const noop = (): HookCallback => async () => ({});

export function expectTrace(events: HostEvent[], want: string[]): void {
  expect(brokenInvariants(events)).toEqual([]);
  expect(trace(events)).toEqual(want);
}
