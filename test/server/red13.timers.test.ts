// red13: timers set from server options go through timerDelay (twins of test/xrt/red13.xrt.ts, which runs them on Node, Deno and Bun).
import { describe, expect, it } from 'vitest';
import { ControlBroker } from '../../host/server/control.js';

describe('red13: control requests with a timeout past 2^31 - 1 ms', () => {
  it('stay pending (setTimeout wrapped the delay to 1 ms: every question timed out at once)', async () => {
    const cancelled: string[] = [];
    const broker = new ControlBroker({ request: () => {}, resolved: () => {}, cancelled: (_r, reason) => void cancelled.push(reason) }, 3e9);
    const asked = broker.ask('s', 'elicitation', { message: 'ok?' });
    const infinite = broker.ask('s', 'elicitation', { message: 'ok?' }, { timeoutMs: Number.POSITIVE_INFINITY });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cancelled).toEqual([]);
    expect(broker.pending('s')).toHaveLength(2);
    broker.close();
    expect((await asked).kind).toBe('cancelled');
    expect(await infinite).toEqual({ kind: 'cancelled', reason: 'server-closed' });
  });
});
