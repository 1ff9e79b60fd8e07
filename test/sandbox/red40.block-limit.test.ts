// Session 40: Extism's JS runtime addresses at most 32,768 blocks in one call (the index sits in an
// address's top 16 bits, one of them an i64's sign). Under fuel raised past the default (which ends
// such a loop near 5,600 allocs: red4.alloc-count.test.ts), a plugin that allocated 40,000 blocks
// got addresses naming no block: its store to one was dropped and its output_set failed as "an
// address Extism refuses (an invalid host call)"; a loop that allocated until something gave ran
// into its deadline. Now the alloc past the limit is refused, a TRAP that says so, in-thread and in
// a worker; the next call works; as a guard's hook the call is denied.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { loadPlugin } from '../../host/plugins/index.js';
import { createSandbox } from '../../host/sandbox/index.js';
import type { HostEvent } from '../../host/events/types.js';
import { fakeBash } from '../fixtures/tools.js';
import { asGuard } from '../fixtures/hostile/guard.js';
import { assemble } from './instrument-helpers.js';
import { hostile, str, u64 } from './sandbox-helpers.js';

const TOO_MANY = /^the plugin allocated too many memory blocks in one call: Extism's runtime holds at most 32768 per call/;
/** Past the default fuel (which stops such a loop first), as an embedder may raise it; the n² block scan takes seconds. */
const LIMITS = { timeoutMs: 60_000, fuel: 1e13 };

describe('a call that allocates more blocks than Extism can address', () => {
  // One call past the limit each: Extism's alloc sums every block of the call (n²/2 visits), seconds here.
  it.each([
    ['in-thread', 'run', u64(40_000)],
    ['worker', 'flood', new Uint8Array()],
  ] as const)('is a TRAP that says so, and the next call works (%s, %s)', async (isolation, fn, input) => {
    const sandbox = await createSandbox(await hostile('alloc-blocks'), { isolation, limits: LIMITS });
    try {
      const over = await sandbox.call(fn, input);
      // Old code: a TRAP for output_set's "address Extism refuses" (run), a TIMEOUT (flood).
      expect(over.ok || over.failure).toMatchObject({ code: 'TRAP', message: expect.stringMatching(TOO_MANY) });
      const next = await sandbox.call('run', u64(10));
      expect(next.ok && str(next.output)).toBe('A');
    } finally {
      await sandbox.close();
    }
  }, 120_000);

  it('as a PreToolUse guard\'s hook: the Bash call is denied', async () => {
    const source = await readFile(new URL('../fixtures/hostile/alloc-blocks.wat', import.meta.url), 'utf8');
    const guard = await loadPlugin({ bytes: await assemble(asGuard(source, 'flood')) }, { limits: LIMITS });
    try {
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
      expect(events.find((e) => e.type === 'hook.end')).toMatchObject({ decision: 'deny', failure: { code: 'TRAP', message: expect.stringMatching(TOO_MANY) } });
    } finally {
      await guard.close();
    }
  }, 120_000);
});
