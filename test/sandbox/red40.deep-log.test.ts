// red40, class "embedder code runs on a hostile guest's nearly exhausted stack": an in-thread call
// runs the guest on the JS thread's stack, and a log line or a progress message went to the
// embedder's listener (here: an event bus and its subscriber) inside the host call. A guest that
// recursed to just short of the limit and then logged left the listener a few KB: its RangeError
// was swallowed, so lines vanished without a word, and a throw inside the bus's publish could leave
// it frozen. Lines and progress are now queued during the call and delivered once it has ended.
// Fails on the old code (lines missing at the deepest depths).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '../../host/events/bus.js';
import type { HostEvent } from '../../host/events/types.js';
import { createSandbox } from '../../host/sandbox/index.js';
import type { SandboxedModule } from '../../host/sandbox/types.js';
import { deepInput, probeDeep, unheard } from '../fixtures/deep-log.js';
import { hostile } from './sandbox-helpers.js';

const tick = () => new Promise((r) => setTimeout(r, 0));
const codeOf = (o: { ok: boolean; failure?: { code: string } }) => (o.ok ? 'ok' : o.failure!.code);

describe('a guest that logs just short of the stack limit (red40)', () => {
  const heard: string[] = [];
  const bus = new EventBus();
  bus.subscribe((e) => void (e.type === 'plugin.log' && heard.push(e.message)));
  const publish = (message: string) =>
    bus.publish({ type: 'plugin.log', plugin: 'deep', level: 'info', message, seq: 0, sessionId: 's', time: 0 } as HostEvent);
  let sandbox: SandboxedModule;
  beforeAll(async () => {
    sandbox = await createSandbox(await hostile('deep-log'), {
      name: 'deep-log',
      limits: { timeoutMs: 10_000, fuel: 1e12 },
      // The listener publishes on the bus, as a session's does.
      host: { onLog: (_level, message) => publish(message), onProgress: (message) => publish(message) },
      quarantine: { maxConsecutiveFailures: 1_000 },
    });
  });
  afterAll(() => sandbox.close());

  it.each(['run', 'progress'])('%s: every line of every call is heard, in order, and the bus still delivers after', async (fn) => {
    const probes = await probeDeep(async (depth) => {
      heard.length = 0;
      const code = codeOf(await sandbox.call(fn, deepInput(depth)));
      await tick();
      return { code, heard: [...heard] };
    });
    expect(probes.some((p) => p.code === 'STACK_OVERFLOW')).toBe(true);
    expect(unheard(probes)).toEqual([]);
    heard.length = 0;
    publish('after');
    await tick();
    expect(heard).toEqual(['after']);
  });
});
