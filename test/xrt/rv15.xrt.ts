// rv15 (a hostile review of fix3's fixes) on Node, Deno and Bun against the build. Each fails on the code before.
// 1. Data dir: replaceMessages checked its token, waited for the transcript's handle, then wrote the file whatever
//    the store said by then (a delete and re-create meanwhile got the old prompt's conversation).
// 2. Redis: a fencing-token counter that is not a whole number below 2^53-1 is refused before ACQUIRE writes
//    (INCR failing halfway left a lease and a running mark nobody held; tokens past 2^53 read rounded).
// 3. A shared store: a replica whose renewals hang publishes nothing of its prompt once it may have lost the lease
//    (held until the store confirms or refuses the token): after another replica took over, nothing more reaches
//    the session's stream and the prompt stops; with nobody taking over, every event goes out, in order.
// 4. The HookResponse text caps (131,072 / 131,072 / 262,144 characters) hold for JS and shell hooks too.
// 5. agent.end waited for a store that stops answering forever (prompt() never settled): now at most 5 s.
// 6. serve's POST /plugins: a .sig that is an idle FIFO held the load (and its slot) after its client left.
// 7. A redactor matched to the agent tool: a nested sub-agent's subagent.start carried the prompt the reviewed
//    sub-agent wrote after reading the secret (its tool.call input was emptied); inner hooks' and denials' reasons too.
// Vitest twins: test/agent/rv15-nested-redaction.test.ts, test/config/rv15-sig.test.ts, test/hooks/rv15-caps.test.ts and test/store/rv15.test.ts (the scenarios live in test/store/rv15-store.ts and rv15-lease.ts).
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, copyFileSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as dist from '../../dist/index.js';
import { createServer } from '../../dist/server.js';
import { fileReplaceAfterDelete, redisDamagedCounter } from '../store/rv15-store.ts';
import { cutOffPrompt } from '../store/rv15-lease.ts';
import { hookTextCaps } from '../hooks/rv15-caps.ts';
import { nestedSubagentRedaction } from '../agent/rv15-nested-redaction.ts';
import { stalledStoreEnd } from '../store/rv15-stall.ts';
import { HOW_TO_INSTALL, haveRedis, startRedis } from '../store/redis-server.ts';
import { nodeTwin } from './twin.ts';

/** Runs fileReplaceAfterDelete, redisDamagedCounter, cutOffPrompt and stalledStoreEnd on Node as these scenarios do. */
const STORE_TWIN = 'test/store/rv15.test.ts';
const deps = { createHost: dist.createHost as never, createServer: createServer as never, eventGrammarViolations: dist.eventGrammarViolations as never };

export const scenarios: Record<string, () => Promise<void>> = {
  'data dir: a rewrite whose token ended while it waited for the handle writes no transcript': nodeTwin(STORE_TWIN, 'fileReplaceAfterDelete', () => fileReplaceAfterDelete(dist.openStore as never)),
  'Redis: a damaged fencing-token counter refuses acquire before writing anything': nodeTwin(STORE_TWIN, 'redisDamagedCounter', async () => {
    if (!haveRedis()) return console.log(`  (skipped: ${HOW_TO_INSTALL})`);
    const redis = await startRedis({ persist: false });
    const { default: Redis } = await import('ioredis');
    const raw = new Redis(redis.url);
    try {
      await redisDamagedCounter(dist.openStore as never, redis.url, raw as never);
    } finally {
      raw.disconnect();
      await redis.dispose();
    }
  }),
  'shared store, renewals hang, another replica takes over: nothing more of the cut-off prompt is published; it stops': nodeTwin(STORE_TWIN, 'cutOffPrompt', async () =>
    cutOffPrompt(deps, (await dist.openStore({ kind: 'memory' })).store as never, true)),
  'shared store, renewals hang, nobody takes over: every event is published once the store answers, one agent.end': nodeTwin(STORE_TWIN, 'cutOffPrompt', async () =>
    cutOffPrompt(deps, (await dist.openStore({ kind: 'memory' })).store as never, false)),
  'JS and shell hooks: a reason, systemMessage or additionalContext past its cap is BAD_OUTPUT (the guard fails closed); at the cap kept': nodeTwin('test/hooks/rv15-caps.test.ts', 'hookTextCaps', () =>
    hookTextCaps({ createHost: dist.createHost, scriptedModel: dist.scriptedModel, createShellHook: dist.createShellHook, shellHooks: dist.shellHooks } as never)),
  'a store that stops answering: agent.end goes out at most 5 s later, once, and prompt() settles': nodeTwin(STORE_TWIN, 'stalledStoreEnd', async () =>
    stalledStoreEnd({ createHost: dist.createHost, scriptedModel: dist.scriptedModel, eventGrammarViolations: dist.eventGrammarViolations } as never, (await dist.openStore({ kind: 'memory' })).store as never)),
  'serve: two POST /plugins loads stuck on a .sig that is an idle FIFO stop when their clients leave; the next load is not held up': async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wasmhooks-rv15-sig-'));
    const calc = fileURLToPath(new URL('../../plugins/calc/build/calc.wasm', import.meta.url));
    const wasm = join(dir, 'p.wasm');
    copyFileSync(calc, wasm);
    execFileSync('mkfifo', [`${wasm}.sig`]);
    // A writer that is there and sends nothing (our own descriptor, open for reading and writing).
    const writer = openSync(`${wasm}.sig`, constants.O_RDWR | constants.O_NONBLOCK);
    const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
    const runtime = 'Deno' in globalThis ? [process.execPath, 'run', '-A', cli] : [process.execPath, cli];
    const token = 'rv15-token-0123456789abcdef';
    const child = spawn(runtime[0]!, [...runtime.slice(1), 'serve', '--port', '0', '--allow-plugin-loading', '--data-dir', join(dir, 'data')], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', WASMHOOKS_TOKEN: token },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 20_000);
        child.stdout!.on('data', (d: Uint8Array) => {
          out += new TextDecoder().decode(d);
          const m = /serving on (http:\/\/\S+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!.replace(/\/$/, ''));
          }
        });
        child.on('error', reject);
      });
      const post = (path: string, signal?: AbortSignal) =>
        fetch(`${url}/plugins`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ path }), ...(signal ? { signal } : {}) });
      const clients = [new AbortController(), new AbortController()];
      const gone = clients.map((c) => post(wasm, c.signal).catch(() => undefined));
      await new Promise((r) => setTimeout(r, 500));
      for (const c of clients) c.abort();
      await Promise.all(gone);
      const started = performance.now();
      const res = await post(calc);
      assert.equal(res.status, 201, await res.text());
      assert.ok(performance.now() - started < 5_000, `the next load waited ${(performance.now() - started).toFixed(0)} ms`);
    } finally {
      child.kill('SIGKILL');
      closeSync(writer);
      rmSync(dir, { recursive: true, force: true });
    }
  },
  'a redactor matched to the agent tool: a nested sub-agent\'s prompt (written after reading the secret) is withheld': nodeTwin('test/agent/rv15-nested-redaction.test.ts', 'nestedSubagentRedaction', () =>
    nestedSubagentRedaction({ createHost: dist.createHost, scriptedModel: dist.scriptedModel, tool: dist.tool, eventGrammarViolations: dist.eventGrammarViolations } as never)),
};
