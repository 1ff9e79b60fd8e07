// Session subscribers: bounded queues that drop and count, isolation from a throwing subscriber.
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../host/models/scripted.js';
import type { HostEvent } from '../../host/events/types.js';
import { collect, endResult, host, ofType } from './helpers.js';

const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');

describe('session.subscribe', () => {
  it('a slow subscriber with a small buffer gets events.dropped; the stream and the loop are unaffected', async () => {
    const session = host({ model: scriptedModel({ turns: [{ text: long }], wordsPerDelta: 1 }) }).session();
    const slow: HostEvent[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    session.subscribe(async (e) => {
      slow.push(e);
      if (slow.length === 1) await gate;
    }, { buffer: 8 });
    const events = await collect(session, 'go');
    expect(ofType(events, 'text.delta')).toHaveLength(60);
    expect(ofType(events, 'events.dropped')).toHaveLength(0);
    release();
    await new Promise((r) => setTimeout(r, 10));
    const dropped = ofType(slow, 'events.dropped');
    expect(dropped).toHaveLength(1);
    expect(slow.length - 1 + (dropped[0]?.count ?? 0)).toBe(events.length);
  });

  it('a throwing subscriber affects neither the loop nor other subscribers', async () => {
    const session = host({ model: scriptedModel([{ text: 'fine' }]) }).session();
    session.subscribe(() => {
      throw new Error('subscriber bug');
    });
    const seen: string[] = [];
    session.subscribe((e) => void seen.push(e.type));
    const events = await collect(session, 'go');
    expect(endResult(events).subtype).toBe('success');
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual(events.map((e) => e.type));
  });

  it('hook.end carries systemMessage; a non-object tool input is a failure result', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'Read', input: 'oops' as never }] }, { text: '.' }]);
    const h = host({ model, allowedTools: ['Read'], hooks: { Stop: [{ hooks: [async () => ({ systemMessage: 'all done' })] }] } });
    const events = await collect(h.session(), 'go');
    expect(ofType(events, 'tool.output')[0]).toMatchObject({ isError: true, content: 'the input of Read must be a JSON object' });
    expect(ofType(events, 'hook.end').find((e) => e.event === 'Stop')?.systemMessage).toBe('all done');
  });
});
