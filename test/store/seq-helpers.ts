// seq2's helpers: a model that hangs mid-message, and the order every store keeps `resumeAt` in.
import { expect } from 'vitest';
import type { Model } from '../../host/models/types.js';
import type { ResumeAt, SessionStore } from '../../host/store/types.js';

/** A model that streams a few words, then waits for `gate` before it ends its message. */
export function hangingModel(gate: Promise<void>): Model {
  return {
    id: 'hanging',
    async *stream() {
      yield { type: 'message.start', model: 'hanging' };
      for (const w of ['one ', 'two ', 'three']) yield { type: 'text.delta', text: w };
      await gate;
      yield { type: 'message.end', stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 3 } };
    },
  };
}

/** The one order every store keeps `resumeAt` in (a stale writer's value is dropped, not stored). */
export async function monotonic(store: SessionStore): Promise<void> {
  await store.create({ id: 'm1', createdAt: Date.now(), prompts: 0, options: {} });
  const steps: [ResumeAt, boolean][] = [
    [{ seq: 10, turn: 1 }, true],
    [{ seq: 10_010, turn: 2, open: true }, true], // prompt 2 reserves
    [{ seq: 9, turn: 1 }, false], // prompt 1's late writer
    [{ seq: 42, turn: 2 }, true], // prompt 2 ends: its exact count replaces its reservation
    [{ seq: 20_042, turn: 2, open: true }, false], // a reservation of an ended prompt
    [{ seq: 45, turn: 2 }, true], // a compaction after it
    [{ seq: 44, turn: 2 }, false],
  ];
  for (const [value, stored] of steps) {
    const before = (await store.get('m1'))?.resumeAt;
    await store.update('m1', { resumeAt: value, prompts: value.turn });
    expect((await store.get('m1'))?.resumeAt, JSON.stringify(value)).toEqual(stored ? value : before);
    expect((await store.get('m1'))?.prompts).toBe(value.turn); // the rest of the patch is applied
  }
}
