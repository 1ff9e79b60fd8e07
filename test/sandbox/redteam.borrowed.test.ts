// Red team of borrowed request buffers (CallOptions.borrowed, the hook
// encoder's view, the in-thread engine's input handling): a call must never
// see bytes the caller wrote after `call` returned (another call's request),
// and a plugin must never write into a buffer the host or the caller owns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import type { SandboxedModule } from '../../host/sandbox/types.js';
import { REENTRANT, SCRIBBLER, assembleThreaded } from '../fixtures/hostile/redteam.js';
import { hostile, str } from './sandbox-helpers.js';


let echo: SandboxedModule;
let scribbler: SandboxedModule;
beforeAll(async () => {
  echo = await createSandbox(await hostile('echo'), { limits: { timeoutMs: 2_000 }, quarantine: { maxConsecutiveFailures: 100 } });
  scribbler = await createSandbox(await assembleThreaded(SCRIBBLER), { limits: { timeoutMs: 2_000 } });
});
afterAll(() => Promise.all([echo.close(), scribbler.close()]));

describe('borrowed inputs under attack', () => {
  it('a borrowed input that spans its whole buffer is read before call() returns, even when the instance must be rebuilt first', async () => {
    for (const size of [1024, 2048, 16 * 1024, 20_000]) {
      // The hook encoder's buffer is 1024, 2048, … 16384 bytes: a request of exactly that size is a view of all of it.
      const buffer = new Uint8Array(size).fill(0x41);
      // A plugin can make its own instance be thrown away (a trap), so that its next call awaits instantiation.
      expect((await echo.call('trap', new Uint8Array(0))).ok).toBe(false);
      const running = echo.call('run', buffer, { borrowed: true });
      buffer.fill(0x42); // the next request, encoded into the same buffer while the first waits
      const outcome = await running;
      expect(outcome.ok && str(outcome.output)).toBe('A'.repeat(size));
    }
    // A large view (Extism copied views itself, but only once the rebuilt instance was ready).
    const big = new Uint8Array(40_000).fill(0x41);
    expect((await echo.call('trap', new Uint8Array(0))).ok).toBe(false);
    const running = echo.call('run', big.subarray(8, 20_008), { borrowed: true });
    big.fill(0x42);
    const outcome = await running;
    expect(outcome.ok && str(outcome.output)).toBe('A'.repeat(20_000));
  });

  it('a plugin cannot write into the caller\'s input buffer, borrowed or not, of any size', async () => {
    for (const size of [16, 1024, 20_000]) {
      for (const borrowed of [false, true]) {
        const input = new Uint8Array(size).fill(0x41);
        const outcome = await scribbler.call('scribble', input, { borrowed });
        expect(outcome.ok && str(outcome.output)).toBe('X'.repeat(size));
        expect(input.every((b) => b === 0x41)).toBe(true);
      }
    }
  });

  it('re-entrant: a host function that starts calls of another plugin and of the caller itself, and rewrites the caller\'s lent buffer, while the caller is in flight', async () => {
    const lent = new Uint8Array(1024); // a request that fills the encoder's buffer exactly
    const nested: Promise<unknown>[] = [];
    let self: SandboxedModule | undefined;
    let depth = 0;
    const poke = () => {
      if (depth++ > 0) return; // the re-entered call pokes no further
      // Another plugin's call on this thread, and a call of the caller itself (queued: it is busy), from the same buffer.
      lent.fill(0x42);
      nested.push(echo.call('run', lent, { borrowed: true }).then((o) => o.ok && str(o.output)));
      nested.push(self!.call('run', lent, { borrowed: true }).then((o) => o.ok && str(o.output)));
      lent.fill(0x43); // and the encoder moves on to a third request
    };
    self = await createSandbox(await assembleThreaded(REENTRANT), {
      name: 'reentrant',
      limits: { timeoutMs: 2_000 },
      hostFunctions: { poke: { params: [], results: [], fn: () => poke() } },
    });
    try {
      lent.fill(0x41);
      const outcome = await self.call('run', lent, { borrowed: true });
      // The caller saw its own request throughout; each nested call saw the bytes as they were when it was made.
      expect(outcome.ok && str(outcome.output)).toBe('A'.repeat(1024) + 'A');
      expect(await Promise.all(nested)).toEqual(['B'.repeat(1024), 'B'.repeat(1024) + 'B']);
    } finally {
      await self.close();
    }
  });
});

