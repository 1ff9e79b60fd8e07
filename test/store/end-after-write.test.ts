// fix3 item 1 (vitest twin of test/xrt/fix3.xrt.ts): a prompt's agent.end goes out only after its transcript
// and resumeAt are written, so whoever sees the end reads them; a store that fails still lets the end out;
// events emitted while it is held keep their order.
import { describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { openStore } from '../../host/store/open.js';
import { lateWrites } from './late-writes.js';
import type { HostEvent } from '../../host/events/types.js';
import { eventGrammarViolations } from '../../host/events/grammar.js';

const model = () => scriptedModel({ rules: [{ when: () => true, reply: { text: 'Hello.' } }] });

describe('agent.end after the transcript is written', () => {
  it('a stream consumer reads the prompt and the exact resumeAt at agent.end, with no wait', async () => {
    const { store: inner } = await openStore({ kind: 'memory' });
    await inner.create({ id: 's', createdAt: 0, prompts: 0, options: {} });
    const session = await createHost({ model: model(), store: lateWrites(inner, 40) }).resume('s');
    const events: HostEvent[] = [];
    for (const [n, prompt] of ['one', 'two'].entries()) {
      for await (const e of session.stream(prompt)) {
        events.push(e);
        if (e.type !== 'agent.end') continue;
        expect(await inner.messages('s')).toHaveLength(2 * (n + 1));
        expect((await inner.get('s'))?.resumeAt).toEqual({ seq: e.seq, turn: n + 1 });
      }
    }
    expect(eventGrammarViolations(events, { span: 'session' })).toEqual([]);
    await session.prompt('three');
    expect(await inner.messages('s')).toHaveLength(6);
  });

  it('events emitted while the end is held follow it in seq order; a subscriber sees them after agent.end', async () => {
    const { store: inner } = await openStore({ kind: 'memory' });
    const session = createHost({ model: model(), store: lateWrites(inner, 30) }).session();
    const seen: HostEvent[] = [];
    session.subscribe((e) => {
      seen.push(e);
    });
    await session.prompt('hi');
    const end = seen.findIndex((e) => e.type === 'agent.end');
    expect(end).toBe(seen.length - 1);
    expect(seen.every((e, i) => i === 0 || e.seq === seen[i - 1]!.seq + 1)).toBe(true);
  });

  it('a store that fails still lets agent.end out (the failure is the store’s to report)', async () => {
    const { store: inner } = await openStore({ kind: 'memory' });
    const session = createHost({ model: model(), store: lateWrites(inner, 5, true) }).session();
    const types: string[] = [];
    for await (const e of session.stream('hi')) types.push(e.type);
    expect(types.at(-1)).toBe('agent.end');
  });
});
