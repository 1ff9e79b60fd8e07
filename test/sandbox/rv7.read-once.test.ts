// Review (rv7) of red8's read-once options: createRawSandbox's run still read `options.signal` twice,
// once for the "already aborted" check and once for the meter, so a getter could hand the check a
// live signal and the meter none: the caller's abort then never stopped the run.
import { describe, expect, it } from 'vitest';
import wabtInit from 'wabt';
import { createRawSandbox } from '../../host/sandbox/raw.js';
import { flip } from '../xrt/wat.js';

describe('createRawSandbox run options are read once', () => {
  it('the signal the check saw is the one the run stops on', async () => {
    const wabt = await wabtInit();
    const mod = wabt.parseWat('spin.wat', '(module (func (export "spin") (loop $l br $l)))');
    const bytes = new Uint8Array(mod.toBinary({}).buffer);
    mod.destroy();
    const raw = await createRawSandbox(bytes, { limits: { timeoutMs: 3_000, fuel: Number.POSITIVE_INFINITY } });
    const instance = await raw.instantiate();
    const controller = new AbortController();
    const options = Object.defineProperty({}, 'signal', flip(controller.signal, undefined));
    const started = performance.now();
    // The abort comes while the run waits (a spin blocks the event loop), then the module spins.
    const out = await raw.run(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      controller.abort();
      (instance.exports.spin as () => void)();
    }, options);
    expect(out.ok).toBe(false);
    // The old run took the second reading (none): it ran to its 3 s deadline (TIMEOUT).
    if (!out.ok) expect(out.failure.code).toBe('ABORTED');
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
