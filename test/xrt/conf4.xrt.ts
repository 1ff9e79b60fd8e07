// conf4: conformance on Node, Deno and Bun against the build. What a turn sends back
// (test/models/conf4-streams.ts through a whole prompt); the transcript agreeing with the event
// stream on every hostile path, and call ids unique in a conversation (test/agent/conf4-traces.ts).
import assert from 'node:assert/strict';
import { aiSdkModel, anthropicModel, createHost, eventGrammarViolations, openaiModel, scriptedModel, shellHooks } from '../../dist/index.js';
import { blockAfterCall, groups, reusedCallIds, splitCompactor, stopBlockAtMaxTurns, traceProblems, type TraceApi } from '../agent/conf4-traces.ts';
import { runCase, type Api } from '../models/stream-conformance.ts';
import { conf4Cases } from '../models/conf4-streams.ts';
import { nodeTwin } from './twin.ts';

const api = { createHost, openaiModel, anthropicModel, aiSdkModel, eventGrammarViolations } as unknown as Api;
const traceApi = { createHost, scriptedModel, eventGrammarViolations, shellHooks } as unknown as TraceApi;

export const scenarios: Record<string, () => Promise<void>> = {
  'provider streams: provider metadata, signed and redacted thinking and tool results go back as each provider accepts; whitespace text does not; an unnamed AI SDK input delta is BAD_STREAM': async () => {
    const failed: string[] = [];
    for (const c of conf4Cases) {
      const problems = await runCase(api, c);
      if (problems.length > 0) failed.push(`${c.name}:\n  ${problems.join('\n  ')}`);
    }
    assert.deepEqual(failed, []);
  },
  'a call id the conversation already has is renamed everywhere (deltas, call, result, what the model gets back)': async () => {
    assert.deepEqual(await reusedCallIds(traceApi), []);
  },
  'a Stop block with no model call left ends error_max_turns, which the grammar accepts after the block only': async () => {
    assert.deepEqual(await stopBlockAtMaxTurns(traceApi), []);
  },
  "Claude Code's block after a call (JS either policy, shell exit 2) sends its reason to the model and keeps the output": async () => {
    assert.deepEqual(await blockAfterCall(traceApi), []);
  },
  'a compactor that cuts between a call and its result is refused; the whole history goes on': async () => {
    assert.deepEqual(await splitCompactor(traceApi), []);
  },
  ...Object.fromEntries(
    Object.entries(groups).map(([name, group]) => [
      `the transcript agrees with the events, and replays as providers accept: ${name}`,
      nodeTwin('test/agent/conf4-traces.test.ts', 'traceProblems', async () => assert.deepEqual(await traceProblems(traceApi, group), [])),
    ]),
  ),
};
