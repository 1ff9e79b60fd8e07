/**
 * Row group 4: the event bus.
 * - Publish + delivery per event with 1 and 4 subscribers, against calling
 *   the same subscribers directly (batches of 1000 events, drained between
 *   batches, below the queue size so nothing is dropped).
 * - Agent-loop throughput with one stalled subscriber (a promise that never
 *   settles: its queue fills and drops) against none. Target: ≤ 10% cost.
 */
import { z } from 'zod';
import { createHost, EventBus, scriptedModel, tool, type HostEvent, type Session } from '../../host/index.js';
import { compare, runtimeName } from '../harness.js';
import { makeRow, type Row, type RowsFn } from './row.js';

const BATCH = 1000;
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const ev = (seq: number): HostEvent => ({ type: 'text.delta', text: 'x', seq, sessionId: 's', time: 0 });

function publisher(subs: number, direct: boolean): () => Promise<void> {
  const bus = new EventBus();
  let sink = 0;
  const fns = Array.from({ length: subs }, () => (e: HostEvent) => void (sink += e.seq));
  for (const f of fns) bus.subscribe(f);
  return async () => {
    for (let i = 0; i < BATCH; i++) {
      const e = ev(i);
      if (direct) for (const f of fns) f(e);
      else bus.publish(e);
    }
    await tick();
    if (sink < 0) throw new Error('unreachable');
  };
}

const echo = tool('Echo', 'Echo text', z.object({ text: z.string() }), ({ text }) => text);
export const TOOL_TURN = { text: 'Reading the file now.', toolCalls: [{ name: 'Echo', input: { text: 'hello world' } }] };
export const PER_PROMPT = 20;

/** One prompt of PER_PROMPT tool iterations in a fresh session; resolves to the iteration count. */
export function loopPrompt(setup?: (session: Session) => void): () => Promise<number> {
  const model = scriptedModel({ rules: [{ when: () => true, reply: TOOL_TURN }] });
  const host = createHost({ model, tools: [echo], permissionMode: 'bypassPermissions', maxTurns: PER_PROMPT });
  return async () => {
    model.requests.length = 0;
    const session = host.session();
    setup?.(session);
    const result = await session.prompt('go');
    if (result.subtype !== 'error_max_turns') throw new Error(`bench loop: unexpected result ${result.subtype}`);
    return result.turns;
  };
}

export const run: RowsFn = async ({ quick }) => {
  const runtime = runtimeName();
  const rows: Row[] = [];
  const opts = { samples: quick ? 100 : 600, warmup: 20, maxMs: quick ? 1_500 : 5_000, rounds: 10 };
  const r = await compare(
    {
      bus1: publisher(1, false),
      direct1: publisher(1, true),
      bus4: publisher(4, false),
      direct4: publisher(4, true),
    },
    opts,
  );
  const perEvent = (us: number) => (us * 1000) / BATCH;
  for (const n of [1, 4] as const) {
    const bus = n === 1 ? r.bus1 : r.bus4;
    const direct = n === 1 ? r.direct1 : r.direct4;
    rows.push(
      makeRow('bus', runtime, {
        what: `publish + delivery per event, ${n} subscriber${n === 1 ? '' : 's'}`,
        ours: { value: perEvent(bus.median), unit: 'ns', p99: perEvent(bus.p99) },
        anchorName: 'calling the subscribers directly',
        anchor: { value: perEvent(direct.median), unit: 'ns', p99: perEvent(direct.p99) },
        note: n === 1 ? `batches of ${BATCH} events, one setImmediate between batches (in both)` : undefined,
      }),
    );
  }

  const l = await compare(
    {
      none: loopPrompt(),
      control: loopPrompt(),
      stalled: loopPrompt((s) => void s.subscribe(() => new Promise<void>(() => {}), { buffer: 64 })),
    },
    { samples: quick ? 20 : 100, warmup: 5, maxMs: quick ? 2_000 : 8_000, rounds: 10, clock: 'cpu' },
  );
  const iter = (us: number) => us / PER_PROMPT;
  rows.push(
    makeRow('bus', runtime, {
      what: `loop iteration with one stalled subscriber (model turn + 1 tool)`,
      ours: { value: iter(l.stalled.median), unit: 'µs', p99: iter(l.stalled.p99), clock: 'cpu' },
      anchorName: 'no subscriber',
      anchor: { value: iter(l.none.median), unit: 'µs', p99: iter(l.none.p99), clock: 'cpu' },
      target: { op: 'max', value: 1.1 },
      note: `the stalled subscriber never settles its first event; its queue (buffer 64, so it overflows within each prompt) drops the rest. Noise floor: a second no-subscriber host measured alongside came out at ${(l.control.median / l.none.median).toFixed(3)}× the first`,
    }),
  );
  return rows;
};
