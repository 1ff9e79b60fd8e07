// Review (rv7) of red8 on Node, Deno and Bun, through the built ESM: each scenario is a hole or a
// regression left on `main` (its vitest twin fails on the code before the fix): the conversation cap
// ended auto-compacting sessions and stayed after a trimming compaction, scriptedModel's delay escaped
// the timer cap, createRawSandbox's run read its signal twice, and a WASI preopen directory swapped
// for a symlink after its check redirected the reads below it (a shell hook's JSON without red8's
// unique-keys rule: test/xrt/shell.xrt.ts).
import assert from 'node:assert/strict';
import fsp, { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { createHost, createRawSandbox, createSandbox, scriptedModel, tool } from '../../dist/index.js';
import type { HostEvent, Message } from '../../dist/index.js';
import { flip, hostile, runtime } from './wat.ts';

/** (module (func (export "spin") (loop br 0))) */
const SPIN = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 7, 8, 1, 4, 115, 112, 105, 110, 0, 0, 10, 9, 1, 7, 0, 3, 64, 12, 0, 11, 11]);

export const scenarios: Record<string, () => Promise<void>> = {
  'an auto-compacting session past maxMessages compacts and goes on; without auto-compaction the cap still ends it': async () => {
    const small = tool('Small', 'answers little', z.object({}), () => 'ok');
    const calls = Array.from({ length: 3 }, () => ({ toolCalls: [{ name: 'Small', input: {} }] }));
    const model = scriptedModel({ turns: [...calls, { text: 'Summary: three calls.' }, { text: 'done' }], contextWindow: 1_000_000 });
    const session = createHost({ model, tools: [small], permissionMode: 'bypassPermissions', maxMessages: 6, keepTurns: 1 }).session();
    const events: HostEvent[] = [];
    for await (const e of session.stream('go')) events.push(e);
    const end = events.find((e) => e.type === 'agent.end');
    assert.ok(end && end.type === 'agent.end');
    assert.equal(end.result.subtype, 'success', JSON.stringify(end.result.error));
    assert.equal(end.result.text, 'done');
    assert.equal(events.filter((e) => e.type === 'context.compacted').length, 1);

    const fixed = scriptedModel({ turns: [...calls, { text: 'never' }], contextWindow: 1_000_000 });
    const off = createHost({ model: fixed, tools: [small], permissionMode: 'bypassPermissions', maxMessages: 6, autoCompact: false });
    assert.equal((await off.session().prompt('go')).error?.code, 'CONVERSATION_TOO_LARGE');
  },

  'a compactor that trims old messages (same count, last kept) makes room under maxConversationChars': async () => {
    const history = [{ role: 'user' as const, content: 'x'.repeat(100_000) }, { role: 'user' as const, content: 'q' }];
    const compactor = async ({ messages }: { messages: readonly Message[] }): Promise<Message[]> =>
      messages.map((m, i) => (i === 0 ? { role: 'user' as const, content: 'trimmed' } : m));
    const session = createHost({ model: scriptedModel([{ text: 'done' }]), maxConversationChars: 50_000, compactor }).session({ history });
    assert.equal((await session.prompt('one more')).error?.code, 'CONVERSATION_TOO_LARGE');
    assert.equal((await session.compact()).compacted, true);
    const result = await session.prompt('again');
    assert.equal(result.error, undefined, JSON.stringify(result.error));
    assert.equal(result.text, 'done');
  },

  'scriptedModel delayMs: Infinity (or past 2^31 - 1 ms) waits for the abort, never fires after 1 ms': async () => {
    for (const delayMs of [Number.POSITIVE_INFINITY, 2 ** 31]) {
      const session = createHost({ model: scriptedModel({ turns: [{ text: 'too soon' }], delayMs }) }).session();
      const timer = setTimeout(() => session.abort(), 150);
      const result = await session.prompt('hi');
      clearTimeout(timer);
      assert.equal(result.subtype, 'aborted', String(delayMs));
    }
  },

  'createRawSandbox: the signal the run checked is the one it stops on (a getter cannot hand the meter none)': async () => {
    const raw = await createRawSandbox(SPIN, { limits: { timeoutMs: 3_000, fuel: Number.POSITIVE_INFINITY } });
    const instance = await raw.instantiate();
    const controller = new AbortController();
    const options = Object.defineProperty({}, 'signal', flip(controller.signal, undefined));
    const started = performance.now();
    const out = await raw.run(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      controller.abort();
      (instance.exports.spin as () => void)();
    }, options);
    assert.equal(!out.ok && out.failure.code, 'ABORTED');
    assert.ok(performance.now() - started < 2_000);
  },

  'a WASI preopen directory swapped for a symlink after its check never redirects the reads below it': async () => {
    const base = await mkdtemp(join(tmpdir(), 'rv7-xrt-'));
    const grant = join(base, 'grant');
    await mkdir(join(grant, 'sub'), { recursive: true });
    await writeFile(join(grant, 'sub', 'b.txt'), 'granted');
    await mkdir(join(base, 'elsewhere'));
    await writeFile(join(base, 'elsewhere', 'b.txt'), 'SECRET');
    const real = fsp.open;
    let swapped = false;
    fsp.open = (async (...args: Parameters<typeof real>) => {
      if (!swapped && String(args[0]).endsWith('/b.txt')) {
        swapped = true;
        await rename(join(grant, 'sub'), join(base, 'moved'));
        await symlink(join(base, 'elsewhere'), join(grant, 'sub'));
      }
      return real(...args);
    }) as typeof real;
    syncBuiltinESMExports();
    try {
      // The snapshot is what the plugin may read; a load that refuses is safe too, a SECRET in it is not.
      const { snapshotDirectory } = (await import(new URL('../../host/sandbox/wasi/snapshot.ts', import.meta.url).href)) as typeof import('../../host/sandbox/wasi/snapshot.js');
      const seen = await snapshotDirectory(grant, { entries: 0, bytes: 0 }, 'p').then(
        (root) => new TextDecoder().decode(((root.entries.get('sub') as { entries: Map<string, { data: Uint8Array }> }).entries.get('b.txt')!).data),
        (e: unknown) => String(e),
      );
      assert.doesNotMatch(seen, /SECRET/);
      // Swapped or not, the directory it listed is what it read (through its handle, where the runtime allows).
      assert.equal(seen, 'granted');
      // A load through the public API of an untouched tree (the listed one, moved aside by the swap) still works.
      const sandbox = await createSandbox(await hostile('red8'), { wasi: { preopens: { '/g': swapped ? join(base, 'moved') : grant } } });
      await sandbox.close();
      console.log(`    (${runtime}: the swap ${swapped ? 'happened' : 'could not be arranged'})`);
    } finally {
      fsp.open = real;
      syncBuiltinESMExports();
      await rm(base, { recursive: true, force: true });
    }
  },
};
