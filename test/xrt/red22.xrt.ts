// Review red22 (memory and event-loop exhaustion by hostile clients and plugins) on Node, Deno and Bun. Vitest twins
// that fail on the old code: test/store/red22.redis-replay, test/sandbox/red22.load-queue, test/plugins/red22.load-path.
import assert from 'node:assert/strict';
import * as wasmhooks from '../../dist/index.js';
import { bigModule } from '../fixtures/big-module.js';
import { HOW_TO_INSTALL, haveRedis, startRedis } from '../store/redis-server.ts';

const runtime = 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : 'node';

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: Redis: concurrent replays share one copy of the events (the same entries, read once)`]: async () => {
    if (!haveRedis()) return console.log(`  (skipped: ${HOW_TO_INSTALL})`);
    const redis = await startRedis({ persist: false });
    const opened = await wasmhooks.openStore({ kind: 'redis', url: redis.url, prefix: 'r22x:', replayWindow: 1000 });
    try {
      const log = opened.eventLog as wasmhooks.EventLog;
      const ids: string[] = [];
      log.subscribe((e) => ids.push(e.id));
      const fill = 'x'.repeat(100_000);
      for (let i = 0; i < 40; i++) log.append({ type: 'message.part', time: i, sessionId: 's1', text: `${i}${fill}` } as never);
      await log.drain();
      for (let i = 0; i < 500 && ids.length < 40; i++) await new Promise((r) => setTimeout(r, 10));
      const replays = await Promise.all(Array.from({ length: 30 }, () => log.since(`${log.epoch}.0-1`, 64 << 20)));
      for (const since of replays) {
        assert.equal(since.kind, 'ok');
        assert.deepEqual(since.entries.map((e) => e.id), ids);
        since.entries.forEach((e, i) => assert.equal(e, replays[0]!.entries[i], 'every replay holds the same entry'));
      }
      // Bounded by the client as before: the newest that fit, a gap that counts the rest.
      const cut = await log.since(`${log.epoch}.0-1`, 350_000);
      assert.equal(cut.kind === 'gap' && cut.reason, 'over-limit');
      assert.equal(cut.entries.length, 3);
      assert.equal(cut.kind === 'gap' && cut.missed, 37);
    } finally {
      await opened.close();
      await redis.dispose();
    }
  },

  [`${runtime}: large loads take turns; a waiting load that is aborted fails LOAD_FAILED, cause ABORTED`]: async () => {
    const loads = Array.from({ length: 4 }, (_, i) => wasmhooks.createSandbox(bigModule(3e6, 4 + i), { name: `big${i}` }));
    const stop = new AbortController();
    const waiting = wasmhooks.createSandbox(bigModule(3e6, 9), { name: 'waiting', signal: stop.signal });
    await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    const error = await waiting.then(() => undefined, (e: unknown) => e as wasmhooks.WasmhooksError);
    assert.equal(error?.code, 'LOAD_FAILED');
    assert.equal((error?.cause as { code?: string } | undefined)?.code, 'ABORTED');
    assert.match(error?.message ?? '', /^waiting: the load was aborted while it waited for its turn to load$/);
    for (const sandbox of await Promise.all(loads)) {
      assert.ok(sandbox.exports.includes('e0'));
      await sandbox.close();
    }
  },

  [`${runtime}: loadPlugin hands its own copy to the sandbox: the caller's bytes stay whole, the pin is the digest`]: async () => {
    const wasm = bigModule(1e6); // off-thread: the load's bytes are moved to a worker
    const [size, sha256] = [wasm.byteLength, await wasmhooks.sha256(wasm)];
    const error = await wasmhooks.loadPlugin({ bytes: wasm, sha256 }).then(() => undefined, (e: unknown) => e as wasmhooks.WasmhooksError);
    assert.equal(error?.code, 'MISSING_EXPORT');
    assert.equal(wasm.byteLength, size);
    assert.equal(await wasmhooks.sha256(wasm), sha256);
  },
};
