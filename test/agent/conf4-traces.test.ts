// conf4: grammar and transcript agreement over every hostile path (conf4-traces.ts), against the
// sources; on Node, Deno and Bun against dist/ in test/xrt/conf4.xrt.ts.
import { describe, expect, it } from 'vitest';
import { createHost, eventGrammarViolations, scriptedModel, shellHooks } from '../../host/index.js';
import type { HostEvent, Message } from '../../host/index.js';
import { blockAfterCall, groups, reusedCallIds, splitCompactor, stopBlockAtMaxTurns, traceProblems } from './conf4-traces.js';
import { replayViolations, transcriptViolations } from './transcript-check.js';

const api = { createHost, scriptedModel, eventGrammarViolations, shellHooks };

describe('conf4: the transcript agrees with the event stream on every path', () => {
  for (const [name, group] of Object.entries(groups)) {
    it(name, async () => {
      expect(await traceProblems(api, group)).toEqual([]);
    }, 120_000);
  }
});

describe('conf4: a Stop block with no model call left', () => {
  it('ends the prompt error_max_turns, which the grammar accepts after the block (and only then)', async () => {
    expect(await stopBlockAtMaxTurns(api)).toEqual([]);
  });
});

describe("conf4: Claude Code's block after a call", () => {
  it('sends its reason to the model and keeps the output (JS hooks either policy, shell exit 2)', async () => {
    expect(await blockAfterCall(api)).toEqual([]);
  });
});

describe('conf4: a compactor that cuts between a call and its result', () => {
  it('is refused and the whole history goes on', async () => {
    expect(await splitCompactor(api)).toEqual([]);
  });
});

describe('conf4: a call id the conversation already has', () => {
  it('is renamed in the deltas, the call, its result and what the model gets back, not kept twice', async () => {
    expect(await reusedCallIds(api)).toEqual([]);
  });
});

describe('conf4: the transcript checker itself', () => {
  const call = (id: string) => ({ type: 'tool_call' as const, id, name: 'Look', input: {} });
  const result = (id: string) => ({ role: 'tool' as const, toolUseId: id, toolName: 'Look', content: 'ok', isError: false });
  it('refuses conversations a provider refuses: a missing, stray, repeated or reordered result, a reused id', () => {
    expect(replayViolations([{ role: 'user', content: 'go' }, { role: 'assistant', content: [call('a'), call('b')] }, result('a'), { role: 'user', content: 'x' }])).toEqual(['message 3 (user) before the results of b']);
    expect(replayViolations([{ role: 'assistant', content: [call('a')] }, result('a'), result('a'), result('z')])).toEqual(['message 2: a second result for a', 'message 3: a result for z, which the assistant message before it did not call']);
    expect(replayViolations([{ role: 'assistant', content: [call('a'), call('b')] }, result('b'), result('a')])).toHaveLength(2);
    expect(replayViolations([{ role: 'assistant', content: [call('a')] }, result('a'), { role: 'assistant', content: [call('a')] }, result('a')])).toEqual(['message 2: the call id a again']);
    expect(replayViolations([{ role: 'assistant', content: [call('a')] }])).toEqual(['the conversation ends before the results of a']);
  });
  it('refuses a conversation that holds other than what the events showed', () => {
    const events = [
      { type: 'agent.start' },
      { type: 'turn.start' },
      { type: 'message.end', content: [call('a')] },
      { type: 'tool.call', toolUseId: 'a', name: 'Look' },
      { type: 'tool.output', toolUseId: 'a', name: 'Look', content: 'shown', isError: false },
      { type: 'turn.end' },
    ] as unknown as HostEvent[];
    const kept = [{ role: 'assistant' as const, content: [call('a')] }, { ...result('a'), content: 'shown' }];
    expect(transcriptViolations(events, 0, kept)).toEqual([]);
    expect(transcriptViolations(events, 0, [kept[0] as Message, result('a')])[0]).toMatch(/kept message 1: the events say .*shown.*, the conversation holds .*"ok"/);
  });
});
