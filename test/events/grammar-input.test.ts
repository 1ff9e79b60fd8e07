// rv10: eventGrammarViolations is a public export fed recorded (parsed) streams. What is no list is a
// typed INVALID_OPTIONS error; an entry that is no event is a `frame` violation at its index; neither
// is ever a TypeError. (The same on Node, Deno and Bun: test/xrt/rv10.xrt.ts.)
import { describe, expect, it } from 'vitest';
import { eventGrammarViolations } from '../../host/events/grammar.js';
import { WasmhooksError } from '../../host/errors.js';

const start = { type: 'agent.start', seq: 1, sessionId: 's', turn: 1, prompt: 'go' };

describe('eventGrammarViolations on input that is no event stream', () => {
  it('refuses a non-list and unknown options with INVALID_OPTIONS', () => {
    for (const bad of [undefined, null, 5, 'x', { length: 1 }]) {
      expect(() => eventGrammarViolations(bad as never)).toThrow(WasmhooksError);
    }
    expect(() => eventGrammarViolations([], { span: 'all' } as never)).toThrow(/span/);
    expect(() => eventGrammarViolations([], { gaps: 'yes' } as never)).toThrow(/gaps/);
    expect(() => eventGrammarViolations([], null as never)).toThrow(WasmhooksError);
  });

  it('reports each entry that is no event at its index and goes on', () => {
    const entries: unknown[] = [null, 3, [], { type: 7 }, { type: Symbol('t') }, { type: 'text.delta', sessionId: {} }, { get type(): string { throw new Error('boom'); } },
      { type: 'hook.start', seq: 2, sessionId: 's', event: Symbol('e'), hookId: 'h' }];
    for (const entry of entries) {
      const v = eventGrammarViolations([start, entry] as never);
      expect(v.find((x) => x.index === 1)?.rule, String(typeof entry)).toBe('frame');
    }
  });
});
