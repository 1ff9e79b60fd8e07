// The grammar checker itself (host/events/grammar.ts): a well-formed prompt passes, and each way of
// breaking it is reported under its rule — the checker can fail. The hostile paths it is run over
// are in test/agent/grammar.test.ts.
import { describe, expect, it } from 'vitest';
import { createHost, scriptedModel } from '../../host/index.js';
import { eventGrammarViolations, type GrammarRule } from '../../host/events/grammar.js';
import type { HostEvent } from '../../host/events/types.js';
import { collect, richHost } from '../agent/hostile.js';

const good = async () => collect(richHost({ createHost, scriptedModel }).host.session(), 'go');
const renumber = (events: HostEvent[]) => events.map((e, i) => ({ ...e, seq: i + 1 }) as HostEvent);
const at = (events: HostEvent[], pred: (e: HostEvent) => boolean, nth = 0) => {
  const i = events.map((e, j) => (pred(e) ? j : -1)).filter((j) => j >= 0)[nth];
  if (i === undefined) throw new Error('no such event');
  return i;
};
const rules = (events: HostEvent[], span?: 'session') => [...new Set(eventGrammarViolations(events, span ? { span } : {}).map((v) => v.rule))];
const without = (events: HostEvent[], i: number) => renumber([...events.slice(0, i), ...events.slice(i + 1)]);
const moved = (events: HostEvent[], from: number, to: number) => {
  const copy = [...events];
  const [e] = copy.splice(from, 1);
  copy.splice(to, 0, e as HostEvent);
  return renumber(copy);
};

describe('eventGrammarViolations', () => {
  it('passes a well-formed prompt and a session of two prompts', async () => {
    expect(eventGrammarViolations(await good())).toEqual([]);
    const session = createHost({ model: scriptedModel([{ text: 'a' }, { text: 'b' }]) }).session();
    const both: HostEvent[] = [];
    session.subscribe((e) => void both.push(e));
    await session.prompt('1');
    await session.prompt('2');
    await new Promise((r) => setTimeout(r, 0));
    expect(rules(both)).toEqual(['frame']); // two prompts are not one prompt's stream
    expect(eventGrammarViolations(both, { span: 'session' })).toEqual([]);
  });

  const cases: [string, (events: HostEvent[]) => HostEvent[], GrammarRule[]][] = [
    ['no agent.end', (ev) => ev.slice(0, -1), ['frame']],
    ['an event after agent.end', (ev) => renumber([...ev, ev[at(ev, (e) => e.type === 'text.delta')] as HostEvent]), ['frame']],
    ['a seq that skips', (ev) => ev.map((e, i) => (i > 10 ? { ...e, seq: e.seq + 1 } : e)), ['seq']],
    ['a seq that repeats', (ev) => ev.map((e, i) => (i === 10 ? { ...e, seq: e.seq - 1 } : e)), ['seq']],
    ['another session\'s event', (ev) => ev.map((e, i) => (i === 5 ? { ...e, sessionId: 'other' } : e)), ['seq']],
    ['a text delta before message.start', (ev) => moved(ev, at(ev, (e) => e.type === 'text.delta'), at(ev, (e) => e.type === 'message.start')), ['message']],
    ['a hook.end without its start', (ev) => without(ev, at(ev, (e) => e.type === 'hook.start' && e.event === 'PostToolUse')), ['hook']],
    ['a hook inside a hook', (ev) => moved(ev, at(ev, (e) => e.type === 'hook.end' && e.event === 'PreToolBatch'), at(ev, (e) => e.type === 'hook.end' && e.event === 'PreToolUse') + 1), ['hook']],
    ['an illegal decision', (ev) => ev.map((e) => (e.type === 'hook.end' && e.event === 'PostToolBatch' ? { ...e, decision: 'deny' } : e)), ['hook']],
    ['a failure without its policy', (ev) => ev.map((e) => (e.type === 'hook.end' && e.event === 'Stop' ? { ...e, failure: { code: 'TRAP', message: 'x' } } : e)), ['hook']],
    ['a failure whose decision is not its policy\'s', (ev) => ev.map((e) => (e.type === 'hook.end' && e.event === 'PreToolBatch' ? { ...e, failure: { code: 'TIMEOUT', message: 'x' }, failurePolicy: 'fail-open', decision: 'stop' } : e) as HostEvent), ['hook']],
    ['a prompt number that is not one', (ev) => ev.map((e) => (e.type === 'agent.start' ? { ...e, turn: 0 } : e)), ['frame']],
    ['a call never settled', (ev) => without(ev, at(ev, (e) => e.type === 'tool.output')), ['tool']],
    ['a call settled twice', (ev) => { const i = at(ev, (e) => e.type === 'tool.output'); return renumber([...ev.slice(0, i + 1), ev[i] as HostEvent, ...ev.slice(i + 1)]); }, ['tool']],
    ['outputs out of the model\'s order', (ev) => moved(ev, at(ev, (e) => e.type === 'tool.output', 1), at(ev, (e) => e.type === 'tool.output') ), ['tool']],
    ['progress before the permission', (ev) => moved(ev, at(ev, (e) => e.type === 'tool.progress'), at(ev, (e) => e.type === 'permission.resolved')), ['tool']],
    ['a PreToolUse hook after the permission step (not a re-check)', (ev) => moved(ev, at(ev, (e) => e.type === 'permission.resolved'), at(ev, (e) => e.type === 'hook.start' && e.event === 'PreToolUse')), ['hook']],
    ['PostToolBatch before the batch settled', (ev) => moved(ev, at(ev, (e) => e.type === 'tool.output' && e.toolUseId === 'l4'), at(ev, (e) => e.type === 'hook.end' && e.event === 'PostToolBatch') + 1), ['hook']],
    ['a Stop hook in a turn with tool calls', (ev) => ev.map((e) => ((e.type === 'hook.start' || e.type === 'hook.end') && e.event === 'PostToolBatch' ? { ...e, event: 'Stop', decision: 'continue' } : e) as HostEvent), ['hook']],
    ['a turn without its end', (ev) => without(ev, at(ev, (e) => e.type === 'turn.end')), ['turn']],
    ['turns that skip a number', (ev) => ev.map((e) => (e.type === 'turn.start' && e.iteration === 3 ? { ...e, iteration: 5 } : e.type === 'turn.end' && e.iteration === 3 ? { ...e, iteration: 5 } : e)), ['turn']],
    ['a turn.end whose stopReason is not its message\'s', (ev) => ev.map((e) => (e.type === 'turn.end' && e.iteration === 4 ? { ...e, stopReason: 'max_tokens' } : e)), ['turn']],
    ['an error code that is no AgentErrorCode', (ev) => renumber([...ev.slice(0, -1), { ...(ev[0] as HostEvent), type: 'error', code: 'OOPS', message: 'x' } as unknown as HostEvent, ev.at(-1) as HostEvent]), ['error', 'result']],
    ['an error result without its error event', (ev) => ev.map((e) => (e.type === 'agent.end' ? { ...e, result: { ...e.result, subtype: 'error_during_execution', error: { code: 'INTERNAL', message: 'x' } } } : e)), ['result']],
    ['a sub-agent event outside its sub-agent', (ev) => moved(ev, at(ev, (e) => e.type === 'subagent.end'), at(ev, (e) => e.type === 'subagent.start') + 1), ['frame']],
    ['the agent call\'s output before subagent.end', (ev) => moved(ev, at(ev, (e) => e.type === 'subagent.end'), at(ev, (e) => e.type === 'tool.output' && e.toolUseId === 'ag') + 1), ['subagent']],
    ['a state change that is no move', (ev) => ev.map((e, i) => (i === at(ev, (x) => x.type === 'state.change') ? { ...e, from: 'idle', to: 'executing' } : e) as HostEvent), ['state']],
  ];
  for (const [name, mutate, want] of cases) {
    // The first rule broken is the one named; what it breaks later may cascade.
    it(`reports ${name}`, async () => expect(rules(mutate(await good()))).toEqual(expect.arrayContaining(want)));
  }
});
