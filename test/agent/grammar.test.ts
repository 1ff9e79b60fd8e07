// The event grammar (host/events/grammar.ts) over hostile interleavings (test/agent/hostile-scenarios.ts):
// aborts after every event, failing and malformed model streams, permission answers, hook timeouts,
// stop caps, sub-agents, compaction and a session's whole life. The same scenarios run on Node, Deno
// and Bun against the build in test/xrt/conformance.xrt.ts.
import { describe, expect, it } from 'vitest';
import { createHost, scriptedModel } from '../../host/index.js';
import { eventGrammarViolations } from '../../host/events/grammar.js';
import * as scenarios from './hostile-scenarios.js';
import type { Stream } from './hostile.js';
import { trace, violationLines } from './trace.js';

const api = { createHost, scriptedModel };

/** Each stream's broken rules, keyed by its name (only streams that break one); there are streams (as test/xrt/conformance.xrt.ts checks). */
function broken(streams: Stream[]): Record<string, string[]> {
  expect(streams.length).toBeGreaterThan(0);
  const out: Record<string, string[]> = {};
  for (const s of streams) {
    const lines = violationLines(eventGrammarViolations(s.events, s.span ? { span: s.span } : {}));
    if (lines.length > 0) out[s.name] = [...lines, ...trace(s.events)];
  }
  return out;
}

describe('the grammar holds on hostile paths', () => {
  it('the rich session', async () => expect(broken(await scenarios.rich(api))).toEqual({}));
  it('aborted, or its consumer gone, after every event', async () => {
    const [first] = await scenarios.rich(api);
    const streams = await scenarios.abortSweep(api, first?.events.length ?? 0);
    expect(broken(streams)).toEqual({});
    // Each abort ends the prompt as aborted, but for the last events (after the model's last answer, the Stop hooks).
    const notAborted = streams.filter((s) => s.name.startsWith('abort') && s.events.at(-1)?.type === 'agent.end' && (s.events.at(-1) as { result: { subtype: string } }).result.subtype !== 'aborted');
    expect(notAborted.map((s) => Number(s.name.split(' ').at(-1)))).toEqual(notAborted.map((_, i) => (first?.events.length ?? 0) - notAborted.length + 1 + i));
    expect(notAborted.length).toBeLessThanOrEqual(6);
  }, 120_000);
  it('aborted after every event on other paths (sub-agents, Stop cap, a late permission answer)', async () => expect(broken(await scenarios.otherSweeps(api))).toEqual({}), 120_000);
  it('failing and malformed model streams', async () => expect(broken(await scenarios.modelStreams(api))).toEqual({}));
  it('permission answers and odd tools', async () => expect(broken(await scenarios.permissions(api))).toEqual({}));
  it('stop caps, hook timeouts, hook stops', async () => expect(broken(await scenarios.hooks(api))).toEqual({}));
  it('sub-agents and a failing compactor', async () => expect(broken(await scenarios.subagents(api))).toEqual({}));
  it('a session over several prompts', async () => expect(broken(await scenarios.sessionSpan(api))).toEqual({}));
});
