// Red team of the in-thread fast path (direct Extism call context, carried
// fuel, self-checked alloc, reused input buffers): a hostile plugin must not
// see or change another call's bytes, gain fuel, or outrun its deadline. The
// same on Deno and Bun: test/xrt/redteam.xrt.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import type { SandboxedModule } from '../../host/sandbox/types.js';
import { hostile, str, text } from './sandbox-helpers.js';

let mirror: SandboxedModule;
beforeAll(async () => {
  mirror = await createSandbox(await hostile('output-is-input'), { name: 'mirror' });
});
afterAll(async () => {
  await mirror.close();
});

describe('an output that is the input block', () => {
  it('keeps its bytes when a later call of the same length runs', async () => {
    const first = await mirror.call('run', text('first'));
    const second = await mirror.call('run', text('other'));
    expect(first.ok && second.ok).toBe(true);
    expect(first.ok && str(first.output)).toBe('first');
    expect(second.ok && str(second.output)).toBe('other');
  });

  it('keeps its bytes for concurrent callers (a queued call of the same length)', async () => {
    const [a, b] = await Promise.all([mirror.call('run', text('aaaa')), mirror.call('run', text('bbbb'))]);
    expect(a.ok && str(a.output)).toBe('aaaa');
    expect(b.ok && str(b.output)).toBe('bbbb');
  });
});
