// A mapped call (MappedCallOptions: `result(outcome)` as a method of the options) resolves to what
// `result` makes of the outcome, once per call, after `check`, on every path a call can settle by:
// run, refused before the plugin, queued behind another call, failed, and in a worker. The plugin
// layer's hook calls are mapped calls (HookCall), so a path that skipped `result` would hand the
// hook dispatcher a raw outcome.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import type { CallOutcome, MappedCallOptions } from '../../host/sandbox/types.js';
import { echoSandboxes, hostile, str, text } from './sandbox-helpers.js';

const echo = echoSandboxes();

/** Options that record the order of `check` and `result` and answer a tagged copy of the outcome. */
function mapped(extra: { signal?: AbortSignal; bad?: boolean } = {}) {
  const seen: string[] = [];
  const options: MappedCallOptions<{ mapped: true; outcome: CallOutcome }> = {
    ...(extra.signal ? { signal: extra.signal } : {}),
    check(output) {
      seen.push(`check:${str(output)}`);
      return extra.bad ? { code: 'BAD_OUTPUT', message: 'not what was asked' } : null;
    },
    result(outcome) {
      seen.push(`result:${outcome.ok ? 'ok' : outcome.failure.code}`);
      return { mapped: true, outcome };
    },
  };
  return { options, seen };
}

describe('mapped calls', () => {
  it('resolve to what result makes of the outcome, after check', async () => {
    const { options, seen } = mapped();
    const answer = await echo.inThread.call('run', text('hello'), options);
    expect(answer.mapped).toBe(true);
    expect(answer.outcome.ok && str(answer.outcome.output)).toBe('hello');
    expect(seen).toEqual(['check:hello', 'result:ok']);
  });

  it('map the failure check returns', async () => {
    const { options, seen } = mapped({ bad: true });
    const answer = await echo.inThread.call('run', text('garbage'), options);
    expect(answer.outcome.ok).toBe(false);
    expect(!answer.outcome.ok && answer.outcome.failure.code).toBe('BAD_OUTPUT');
    expect(seen).toEqual(['check:garbage', 'result:BAD_OUTPUT']);
  });

  it('map a call refused before the plugin runs (aborted signal, unknown export)', async () => {
    const aborted = mapped({ signal: AbortSignal.abort() });
    const a = await echo.inThread.call('run', text('x'), aborted.options);
    expect(!a.outcome.ok && a.outcome.failure.code).toBe('ABORTED');
    expect(aborted.seen).toEqual(['result:ABORTED']);
    const missing = mapped();
    const m = await echo.inThread.call('nope', text('x'), missing.options);
    expect(!m.outcome.ok && m.outcome.failure.code).toBe('MISSING_EXPORT');
    expect(missing.seen).toEqual(['result:MISSING_EXPORT']);
  });

  it('map queued calls, each once, in order', async () => {
    const calls = ['one', 'two', 'three'].map((s) => ({ s, ...mapped() }));
    const answers = await Promise.all(calls.map((c) => echo.inThread.call('run', text(c.s), c.options)));
    expect(answers.map((a) => a.outcome.ok && str(a.outcome.output))).toEqual(['one', 'two', 'three']);
    for (const c of calls) expect(c.seen).toEqual([`check:${c.s}`, 'result:ok']);
  });

  it('map a worker call', async () => {
    const { options, seen } = mapped();
    const answer = await echo.worker.call('run', text('far'), options);
    expect(answer.outcome.ok && str(answer.outcome.output)).toBe('far');
    expect(seen).toEqual(['check:far', 'result:ok']);
  });

  it('reject with what a throwing result threw, on both backends, and settle the call once', async () => {
    // `result` must not throw (its contract); one that does broke the call's outcome in-thread: the engine's
    // throw reached the module, which settled the call a second time as a TRAP (recorded: a call that ran
    // well counted toward quarantine) and answered the raw outcome, and its count of calls in flight went
    // below zero (later calls then took the queue while one ran).
    const bytes = await hostile('echo');
    for (const isolation of ['in-thread', 'worker'] as const) {
      const sandbox = await createSandbox(bytes, { limits: { timeoutMs: 5_000 }, isolation, quarantine: { maxConsecutiveFailures: 1 } });
      try {
        const throwing = (): never => {
          throw new Error('mapping failed');
        };
        await expect(sandbox.call('run', text('a'), { result: throwing }), isolation).rejects.toThrow('mapping failed');
        await expect(sandbox.call('nope', text('a'), { result: throwing }), `${isolation}, refused`).rejects.toThrow('mapping failed');
        expect(sandbox.health, isolation).toBe('healthy');
        // Queued behind one that rejects, a call still runs (the queue does not carry the rejection on).
        const queued = [sandbox.call('run', text('q1')), sandbox.call('run', text('q2'), { result: throwing }), sandbox.call('run', text('q3'))];
        const settled = await Promise.allSettled(queued);
        expect(settled.map((r) => (r.status === 'fulfilled' ? r.value.ok && str(r.value.output) : (r.reason as Error).message)), isolation).toEqual(['q1', 'mapping failed', 'q3']);
        const next = await Promise.all(['b', 'c'].map((s) => sandbox.call('run', text(s))));
        expect(next.map((o) => o.ok && str(o.output)), isolation).toEqual(['b', 'c']);
      } finally {
        await sandbox.close();
      }
    }
  });

  it('leave a call without result as it was: the outcome itself', async () => {
    const outcome = await echo.inThread.call('run', text('plain'));
    expect(outcome.ok && str(outcome.output)).toBe('plain');
  });
});
