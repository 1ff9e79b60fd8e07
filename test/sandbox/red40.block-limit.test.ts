// Session 40: Extism's JS runtime addresses at most 32,768 blocks in one call (the index sits in an
// address's top 16 bits, one of them an i64's sign). Under fuel raised past the default (which ends
// such a loop near 5,600 allocs: red4.alloc-count.test.ts), a plugin that allocated 40,000 blocks
// got addresses naming no block: its store to one was dropped and its output_set failed as "an
// address Extism refuses (an invalid host call)"; a loop that allocated until something gave ran
// into its deadline. Now the alloc past the limit is refused, a TRAP that says so, in-thread and in
// a worker; the next call works; as a guard's hook the call is denied. Each call past the limit takes
// seconds (Extism's alloc scans every block of the call): one in-thread, one in a worker (the guard). The scenarios are shared with
// test/xrt/red40-decode.xrt.ts (Deno and Bun run them there; on Node this file does).
import { readFile } from 'node:fs/promises';
import { describe, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { loadPlugin } from '../../host/plugins/index.js';
import { createSandbox } from '../../host/sandbox/index.js';
import { tool } from '../../host/tools/define.js';
import { asGuard } from '../fixtures/hostile/guard.js';
import { blocksPastLimit, guardPastLimit, type BlockApi } from './block-limit.js';
import { assemble } from './instrument-helpers.js';
import { hostile } from './sandbox-helpers.js';

const api = { createSandbox, loadPlugin, createHost, scriptedModel, tool } as unknown as BlockApi;

describe('a call that allocates more blocks than Extism can address', () => {
  it('is a TRAP that says so, and the next call works (in-thread)', async () => {
    await blocksPastLimit(api, 'in-thread', await hostile('alloc-blocks'));
  }, 240_000);

  it('as a PreToolUse guard\'s hook (in a worker): the call is denied, and the next one runs', async () => {
    const source = await readFile(new URL('../fixtures/hostile/alloc-blocks.wat', import.meta.url), 'utf8');
    await guardPastLimit(api, await assemble(asGuard(source, 'guard')), 'worker');
  }, 240_000);
});
