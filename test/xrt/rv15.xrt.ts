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
// Vitest twins: test/hooks/rv15-caps.test.ts and test/store/rv15.test.ts (the scenarios live in test/store/rv15-store.ts and rv15-lease.ts).
import * as dist from '../../dist/index.js';
import { createServer } from '../../dist/server.js';
import { fileReplaceAfterDelete, redisDamagedCounter } from '../store/rv15-store.ts';
import { cutOffPrompt } from '../store/rv15-lease.ts';
import { hookTextCaps } from '../hooks/rv15-caps.ts';
import { stalledStoreEnd } from '../store/rv15-stall.ts';
import { HOW_TO_INSTALL, haveRedis, startRedis } from '../store/redis-server.ts';

const deps = { createHost: dist.createHost as never, createServer: createServer as never, eventGrammarViolations: dist.eventGrammarViolations as never };

export const scenarios: Record<string, () => Promise<void>> = {
  'data dir: a rewrite whose token ended while it waited for the handle writes no transcript': () => fileReplaceAfterDelete(dist.openStore as never),
  'Redis: a damaged fencing-token counter refuses acquire before writing anything': async () => {
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
  },
  'shared store, renewals hang, another replica takes over: nothing more of the cut-off prompt is published; it stops': async () =>
    cutOffPrompt(deps, (await dist.openStore({ kind: 'memory' })).store as never, true),
  'shared store, renewals hang, nobody takes over: every event is published once the store answers, one agent.end': async () =>
    cutOffPrompt(deps, (await dist.openStore({ kind: 'memory' })).store as never, false),
  'JS and shell hooks: a reason, systemMessage or additionalContext past its cap is BAD_OUTPUT (the guard fails closed); at the cap kept': () =>
    hookTextCaps({ createHost: dist.createHost, scriptedModel: dist.scriptedModel, createShellHook: dist.createShellHook, shellHooks: dist.shellHooks } as never),
  'a store that stops answering: agent.end goes out at most 5 s later, once, and prompt() settles': async () =>
    stalledStoreEnd({ createHost: dist.createHost, scriptedModel: dist.scriptedModel, eventGrammarViolations: dist.eventGrammarViolations } as never, (await dist.openStore({ kind: 'memory' })).store as never),
};
