// A stop is final, and every cause has one failure type: plugins that catch
// the host's stop with wasm exception handling and answer anyway
// (swallow-stop.wat), causes that used to differ per runtime
// (host-typing.wat), each in-thread and in a worker; then the same plugins as
// PreToolUse guards, which must deny (fail closed) in a real agent run.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import wabtInit from 'wabt';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { loadPlugin } from '../../host/plugins/index.js';
import { encodePluginInfo } from '../../host/protocol/pb-codec.js';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';
import { createSandbox } from '../../host/sandbox/index.js';
import type { FailureCode } from '../../host/failure.js';
import type { Limits, SandboxedModule } from '../../host/sandbox/types.js';
import type { HostEvent } from '../../host/events/types.js';
import { fakeBash } from '../fixtures/tools.js';
import { GUARD_INFO_HEX, asGuard } from '../fixtures/hostile/guard.js';
import { hostile, str, text } from './sandbox-helpers.js';
import { showTimes, slackKept, stopRounds } from '../fixtures/slack.js';

const DEADLINE = 50;
const ROOMY: Partial<Limits> = { timeoutMs: 5_000, fuel: 1e15 };

const cases: [fixture: string, fn: string, code: FailureCode, message: RegExp, limits: Partial<Limits>][] = [
  ['swallow-stop', 'swallow_spin', 'TIMEOUT', /deadline of 50 ms/, { timeoutMs: DEADLINE, fuel: 1e15 }],
  ['swallow-stop', 'swallow_twice', 'TIMEOUT', /deadline of 50 ms/, { timeoutMs: DEADLINE, fuel: 1e15 }],
  ['swallow-stop', 'swallow_quiet', 'TIMEOUT', /deadline of 50 ms/, { timeoutMs: DEADLINE, fuel: 1e15 }],
  ['swallow-stop', 'answer_then_swallow', 'TIMEOUT', /deadline of 50 ms/, { timeoutMs: DEADLINE, fuel: 1e15 }],
  ['swallow-stop', 'answer_then_swallow', 'FUEL_EXHAUSTED', /fuel budget of 2000000/, { timeoutMs: 5_000, fuel: 2_000_000 }],
  ['swallow-stop', 'swallow_spin', 'FUEL_EXHAUSTED', /fuel budget of 2000000/, { timeoutMs: 5_000, fuel: 2_000_000 }],
  ['bulk-spin', 'memory_fill', 'TIMEOUT', /deadline of 50 ms/, { timeoutMs: DEADLINE, fuel: 1e15 }],
  ['bulk-spin', 'memory_copy', 'TIMEOUT', /deadline of 50 ms/, { timeoutMs: DEADLINE, fuel: 1e15 }],
  ['swallow-stop', 'swallow_var', 'MEMORY_LIMIT', /maxVarBytes/, ROOMY],
  ['swallow-stop', 'swallow_progress', 'OUTPUT_TOO_LARGE', /maxProgressBytes \(1048576\)/, ROOMY],
  ['swallow-stop', 'uncaught', 'TRAP', /wasm exception that it did not catch/, ROOMY],
  ['host-typing', 'alloc_negative', 'MEMORY_LIMIT', /18446744073709551615 bytes, beyond its cap/, ROOMY],
  ['host-typing', 'alloc_huge', 'MEMORY_LIMIT', /9223372036854775808 bytes, beyond its cap/, ROOMY],
  ['host-typing', 'http_get', 'TRAP', /called http_request, but the sandbox grants no network access/, ROOMY],
  ['host-typing', 'http_status', 'TRAP', /called http_status_code, but the sandbox grants no network access/, ROOMY],
];

let echo: SandboxedModule;
beforeAll(async () => {
  echo = await createSandbox(await hostile('echo'), { name: 'echo' });
});
afterAll(() => echo.close());

for (const isolation of ['in-thread', 'worker'] as const) {
  describe(`a stop is final, one type per cause: ${isolation}`, () => {
    it.each(cases)('%s %s → %s', async (fixture, fn, code, message, limits) => {
      // Quarantine off: a TIMEOUT case may need more than three rounds (fixtures/slack.ts), and the fourth
      // would otherwise meet the quarantine that three failures in a row earn (CI: QUARANTINED, not TIMEOUT).
      const sandbox = await createSandbox(await hostile(fixture), { name: fixture, isolation, limits, allowExceptions: fixture === 'swallow-stop', quarantine: { maxConsecutiveFailures: 100 } });
      const rounds = await stopRounds(DEADLINE, () => sandbox.call(fn, new Uint8Array(0)), (outcome) => {
        expect(outcome.ok ? `ok: ${str(outcome.output)}` : outcome.failure.code).toBe(code);
        if (!outcome.ok) expect(outcome.failure.message).toMatch(message);
      }, code === 'TIMEOUT' ? 3 : 2, code === 'TIMEOUT' ? 12 : 2, isolation);
      // The documented slack on a loaded machine running other test files (fixtures/slack.ts): a slow
      // round passes only if it was short of CPU, not busy past its deadline, and the best round is on time.
      if (code === 'TIMEOUT') expect(slackKept(DEADLINE, rounds), showTimes(rounds)).toEqual({ everyRound: true, bestRound: true });
      await sandbox.close();
      const ok = await echo.call('run', text('after'));
      expect(ok.ok && str(ok.output)).toBe('after');
    });
  });
}

describe('an abort is final', () => {
  it('a worker plugin that catches the abort and answers still ends ABORTED, within the grace', async () => {
    const sandbox = await createSandbox(await hostile('swallow-stop'), { allowExceptions: true, isolation: 'worker', limits: { timeoutMs: 10_000, fuel: 1e15 } });
    for (const fn of ['swallow_spin', 'swallow_twice', 'swallow_quiet', 'answer_then_swallow']) {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 30);
      const started = performance.now();
      const outcome = await sandbox.call(fn, new Uint8Array(0), { signal: controller.signal });
      expect(outcome.ok ? 'ok' : outcome.failure.code).toBe('ABORTED');
      expect(performance.now() - started).toBeLessThan(1_000);
    }
    await sandbox.close();
  });

  it('in-thread, an abort raised by a host function during the call wins over the answer', async () => {
    // A host function, not a progress callback as before red40: progress is delivered after the call now.
    const controller = new AbortController();
    const sandbox = await createSandbox(await hostile('poke-then-spin'), {
      limits: ROOMY,
      allowExceptions: true,
      hostFunctions: { poke: { params: [], results: [], fn: () => controller.abort() } },
    });
    // The plugin catches the stop the abort raised, then answers "ok": the answer is not used.
    const outcome = await sandbox.call('caught', new Uint8Array(0), { signal: controller.signal });
    expect(outcome.ok ? 'ok' : outcome.failure.code).toBe('ABORTED');
    await sandbox.close();
  });
});

describe('hostile guards fail closed', () => {
  const wabt = wabtInit();
  const guardBytes = async (fixture: string, fn: string) => {
    const source = await readFile(new URL(`../fixtures/hostile/${fixture}.wat`, import.meta.url), 'utf8');
    const mod = (await wabt).parseWat(`${fixture}.wat`, asGuard(source, fn), { exceptions: true });
    try {
      return new Uint8Array(mod.toBinary({}).buffer);
    } finally {
      mod.destroy();
    }
  };

  it('the canned PluginInfo is what the codec encodes', () => {
    const info = encodePluginInfo({
      name: 'hostile',
      version: '0.1.0',
      protocolVersion: 1,
      hooks: [{ event: wasmhooks.v1.HookEvent.HOOK_EVENT_PRE_TOOL_USE, matcher: 'Bash' }],
    });
    expect(Buffer.from(info).toString('hex')).toBe(GUARD_INFO_HEX);
  });

  it.each([
    ['swallow-stop', 'swallow_spin', 'in-thread'],
    ['swallow-stop', 'swallow_spin', 'worker'],
    ['swallow-stop', 'swallow_quiet', 'in-thread'],
    ['swallow-stop', 'answer_then_swallow', 'worker'],
    ['swallow-stop', 'swallow_var', 'in-thread'],
    ['swallow-stop', 'swallow_progress', 'worker'],
    ['host-typing', 'http_get', 'in-thread'],
    ['vars', 'many', 'worker'],
  ] as const)('%s %s as a PreToolUse guard (%s): the Bash call is denied', async (fixture, fn, isolation) => {
    const guard = await loadPlugin({ bytes: await guardBytes(fixture, fn) }, { limits: { timeoutMs: DEADLINE }, isolation, allowExceptions: fixture === 'swallow-stop' });
    const ran: string[] = [];
    const host = createHost({
      plugins: [guard],
      permissionMode: 'bypassPermissions',
      model: scriptedModel({ turns: [{ toolCalls: [{ name: 'Bash', input: { command: 'rm -rf /' } }] }, { text: 'Done.' }] }),
      tools: [fakeBash('ok', ran)],
    });
    const events: HostEvent[] = [];
    for await (const event of host.session().stream('go')) events.push(event);
    expect(ran).toEqual([]);
    expect(events.find((e) => e.type === 'tool.denied')).toBeDefined();
    expect(events.find((e) => e.type === 'hook.end')).toMatchObject({ decision: 'deny', failure: { code: expect.any(String) } });
    await guard.close();
    const ok = await echo.call('run', text('after'));
    expect(ok.ok && str(ok.output)).toBe('after');
  });
});
