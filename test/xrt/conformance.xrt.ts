// The conformance review's hostile paths (test/agent/hostile-scenarios.ts) on Node, Deno and Bun
// against the build: every stream — aborted after each of its events, its consumer gone, failing
// and malformed model streams, permission answers late or after an abort, stop caps, hook
// timeouts under both policies, sub-agents, compaction, a whole session — satisfies the event
// grammar as the build's own eventGrammarViolations states it (docs/events.md).
import assert from 'node:assert/strict';
import { createHost, eventGrammarViolations, scriptedModel } from '../../dist/index.js';
import type { Host, HostEvent } from '../../dist/index.js';
import { createServer } from '../../dist/server.js';
import { richHost } from '../agent/hostile.ts';
import { readEvents } from './red6-helpers.ts';
import * as hostile from '../agent/hostile-scenarios.ts';
import type { Api, Stream } from '../agent/hostile.ts';
import { trace, violationLines } from '../agent/trace.ts';
import { nodeTwin } from './twin.ts';

const api = { createHost, scriptedModel } as unknown as Api;
/** Runs otherSweeps, permissions, hooks, subagents and sessionSpan on Node, each checked as assertGrammar does. */
const GRAMMAR = 'test/agent/grammar.test.ts';

function assertGrammar(streams: Stream[]): void {
  assert.ok(streams.length > 0);
  for (const s of streams) {
    const broken = violationLines(eventGrammarViolations(s.events, s.span ? { span: s.span } : {}));
    assert.deepEqual(broken, [], `${s.name}:\n${trace(s.events).join('\n')}`);
  }
}

export const scenarios: Record<string, () => Promise<void>> = {
  'the rich session, then aborted (and its consumer gone) after each of its events': async () => {
    const rich = await hostile.rich(api);
    assertGrammar(rich);
    const sweep = await hostile.abortSweep(api, rich[0]?.events.length ?? 0);
    assertGrammar(sweep);
    const aborted = sweep.filter((s) => s.name.startsWith('abort') && s.events.at(-1)?.type === 'agent.end' && (s.events.at(-1) as { result: { subtype: string } }).result.subtype === 'aborted');
    assert.ok(aborted.length >= sweep.length / 2 - 6, `${aborted.length} of ${sweep.length / 2} aborts ended aborted`);
  },
  'aborted after each event on other paths: a sub-agent sent back, two sub-agents, the Stop cap, a late permission answer': nodeTwin(GRAMMAR, 'otherSweeps', async () => assertGrammar(await hostile.otherSweeps(api))),
  'failing and malformed model streams: BAD_STREAM, every streamed call denied': async () => {
    const streams = await hostile.modelStreams(api);
    assertGrammar(streams);
    const lines = trace(streams.find((s) => s.name === 'a duplicate tool call id')?.events ?? []);
    assert.ok(lines.includes('tool.denied t1 model-error') && lines.includes('error BAD_STREAM'), lines.join('\n'));
    const early = trace(streams.find((s) => s.name === 'text before message.start')?.events ?? []);
    assert.ok(!early.includes('text.delta*') && early.includes('error BAD_STREAM'), early.join('\n'));
  },
  'permission answers (deny, ask, late, after an abort) and odd tools': nodeTwin(GRAMMAR, 'permissions', async () => assertGrammar(await hostile.permissions(api))),
  'stop caps, hook timeouts under both policies, hook stops, maxTurns': nodeTwin(GRAMMAR, 'hooks', async () => assertGrammar(await hostile.hooks(api))),
  'sub-agents refused, failing, sent back to work, in parallel; a failing compactor': nodeTwin(GRAMMAR, 'subagents', async () => assertGrammar(await hostile.subagents(api))),
  'a session over prompts, a compaction and close() (span: session)': nodeTwin(GRAMMAR, 'sessionSpan', async () => assertGrammar(await hostile.sessionSpan(api))),
  'SSE over a socket: the decoded frames of the rich session equal its in-process events': async () => {
    const seen: HostEvent[] = [];
    const host = richHost(api, { allowedTools: ['Look', 'Change', 'agent'] }).host as unknown as Host;
    const spy: Host = Object.create(host);
    spy.session = (options) => {
      const session = host.session(options);
      session.subscribe((e) => void seen.push(JSON.parse(JSON.stringify(e)) as HostEvent), { buffer: Infinity });
      return session;
    };
    const server = createServer(spy, { port: 0 });
    const { port } = await server.listen();
    try {
      const base = `http://127.0.0.1:${port}`;
      const { id } = (await (await fetch(`${base}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as { id: string };
      const stream = await fetch(`${base}/event?session=${id}`);
      const reading = readEvents<{ type: string }>(stream, (e) => e.type === 'agent.end');
      const accepted = await fetch(`${base}/session/${id}/prompt`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"prompt":"go"}' });
      assert.equal(accepted.status, 202);
      await accepted.body?.cancel();
      const decoded = (await reading).filter((d) => !/^(server|session|replay|prompt|control|event)\./.test(d.type)) as unknown as HostEvent[];
      assert.ok(decoded.length > 100, `${decoded.length} events`);
      assert.deepEqual(decoded, seen.slice(0, decoded.length));
      assert.deepEqual(violationLines(eventGrammarViolations(decoded)), []);
    } finally {
      await server.close();
    }
  },
};
