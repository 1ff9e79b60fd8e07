// fix3 on Node, Deno and Bun against the build: known holes closed.
// 1. Read-your-writes: whoever sees a prompt's agent.end (a library stream, an SSE client) can read that
//    prompt's messages and exact resumeAt from the store (memory, data directory), even when the store is slow.
// 2. Lease fencing: a token from acquire() keeps a lapsed-but-untaken lease's writes going and refuses them
//    once another owner acquired or claimed the session; a server prompt with stalled renewals finishes.
// 3. A redactor matched only to the sub-agent tool covers the sub-agent's live events.
// 4. WASI clock ids that name no clock are EINVAL (poll_oneoff, clock_time_get, clock_res_get).
// 5. POST /plugins loads of an idle FIFO stop when their clients leave: the next load is not held up.
// 6. A HookResponse reason past its cap (131,072 characters) is refused: the hook fails (closed), not cut.
import assert from 'node:assert/strict';
import { createHost, createSandbox, eventGrammarViolations, openStore, scriptedModel } from '../../dist/index.js';
import type { HostEvent, SessionStore } from '../../dist/index.js';
import { subagentRedaction } from '../agent/subagent-redaction.ts';
import * as dist from '../../dist/index.js';
import { hostile } from './wat.ts';
import { asGuard } from '../fixtures/hostile/guard.ts';
import { z } from 'zod';
import { createServer } from '../../dist/server.js';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEvents } from './red6-helpers.ts';
import { fenceContract } from '../store/fence-contract.ts';
import { stalledRenewals } from '../store/fence-stall.ts';
import { lateWrites } from '../store/late-writes.ts';
import { nodeTwin } from './twin.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TOKEN = 'xrt-fix3-token-0123456789abcdef';
const auth = { authorization: `Bearer ${TOKEN}` };

async function withDataDir(run: (store: SessionStore) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'wasmhooks-fix3-'));
  const opened = await openStore({ kind: 'file', dataDir });
  try {
    await run(opened.store);
  } finally {
    await opened.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const scenarios: Record<string, () => Promise<void>> = {
  'read-your-writes (library, memory and data dir): at agent.end the prompt is in the store, resumeAt exact': async () => {
    const memory = (await openStore({ kind: 'memory' })).store;
    for (const [kind, use] of [
      ['memory', (run: (s: SessionStore) => Promise<void>) => run(memory)],
      ['file', withDataDir],
    ] as const) {
      await use(async (inner) => {
        const store = lateWrites(inner, 40);
        await inner.create({ id: `s-${kind}`, createdAt: Date.now(), prompts: 0, options: {} });
        const session = await createHost({ model: scriptedModel({ rules: [{ when: () => true, reply: { text: 'Hello.' } }] }), store }).resume(`s-${kind}`);
        const events: HostEvent[] = [];
        for (const prompt of ['one', 'two']) {
          for await (const e of session.stream(prompt)) {
            events.push(e);
            if (e.type !== 'agent.end') continue;
            // No waiting: the end is out only once the writes are.
            assert.equal((await inner.messages(`s-${kind}`)).length, prompt === 'one' ? 2 : 4, kind);
            assert.deepEqual((await inner.get(`s-${kind}`))?.resumeAt, { seq: e.seq, turn: prompt === 'one' ? 1 : 2 }, kind);
          }
        }
        assert.deepEqual(eventGrammarViolations(events, { span: 'session' }), []);
        // prompt() resolves after the end is out too.
        const result = await session.prompt('three');
        assert.equal(result.subtype, 'success');
        assert.equal((await inner.messages(`s-${kind}`)).length, 6, kind);
      });
    }
  },
  'read-your-writes over HTTP (data dir): GET /session/:id/messages right after SSE agent.end shows the prompt': () =>
    withDataDir(async (inner) => {
      const host = createHost({ model: scriptedModel({ rules: [{ when: () => true, reply: { text: 'Hello.' } }] }) });
      const server = createServer(host, { port: 0, token: TOKEN, store: lateWrites(inner, 40) });
      const { url } = await server.listen();
      try {
        const id = ((await (await fetch(`${url}/session`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' })).json()) as { id: string }).id;
        for (const [n, prompt] of ['one', 'two'].entries()) {
          const stream = await fetch(`${url}/event?session=${id}`, { headers: auth });
          const reading = readEvents<{ type?: string }>(stream, (e) => e.type === 'agent.end');
          reading.catch(() => {});
          const send = () => fetch(`${url}/session/${id}/prompt`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ prompt }) });
          // The lease is released just after agent.end goes out (the end is held for the transcript, not the release).
          let sent = await send();
          for (let i = 0; i < 100 && sent.status === 409; i++) sent = (await sleep(50), await send());
          assert.equal(sent.status, 202, await sent.clone().text());
          await reading;
          const { messages } = (await (await fetch(`${url}/session/${id}/messages`, { headers: auth })).json()) as { messages: unknown[] };
          assert.equal(messages.length, 2 * (n + 1));
        }
      } finally {
        await server.close();
      }
    }),
  'lease fencing (memory, data dir): a lapsed lease nobody took keeps writing; a taken one never writes again': nodeTwin('test/store/fence.test.ts', 'fenceContract', async () => {
    await fenceContract((await openStore({ kind: 'memory' })).store as never, 'm');
    await withDataDir((store) => fenceContract(store as never, 'f'));
  }),
  'lease fencing: a server prompt whose renewals stall past its lease stores its conversation and result': nodeTwin('test/store/fence.test.ts', 'stalledRenewals', async () => {
    await stalledRenewals((await openStore({ kind: 'memory' })).store as never, { createHost: createHost as never, createServer: createServer as never });
  }),
  'a redactor matched to the sub-agent tool: the secret it takes out is in none of the sub-agent\'s live events': async () => {
    await subagentRedaction(dist as never);
  },
  'WASI: an unknown clock id is EINVAL in poll_oneoff (not a monotonic sleep), clock_time_get and clock_res_get': async () => {
    for (const isolation of ['in-thread', 'worker'] as const) {
      const s = await createSandbox(await hostile('fix3-clocks'), { wasi: true, isolation, limits: { timeoutMs: 5_000 } });
      try {
        const out = await s.call('codes', new Uint8Array(0));
        assert.deepEqual(out.ok && [...out.output], [28, 28, 28, 0, 28, 28, 0], `${isolation}: ${out.ok ? '' : out.failure.message}`);
      } finally {
        await s.close();
      }
    }
  },
  'POST /plugins over a socket: two loads of an idle FIFO whose clients leave do not hold the two load slots': async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wasmhooks-fix3-fifo-'));
    execFileSync('mkfifo', [join(dir, 'p.wasm')]);
    // A writer that is there and sends nothing: our own descriptor, open for reading and writing, so the server's
    // reads find a writer from the start (a writer still in its open() would read as an empty file at once).
    const writer = openSync(join(dir, 'p.wasm'), constants.O_RDWR | constants.O_NONBLOCK);
    const inner = createHost({ model: scriptedModel([{ text: 'hi' }]) });
    const host = {
      session: (o: Parameters<typeof inner.session>[0]) => inner.session(o),
      plugins: () => [],
      loadPlugin: (source: Parameters<typeof dist.loadPlugin>[0]) => dist.loadPlugin(source),
    };
    const server = createServer(host as never, { port: 0, token: TOKEN, allowPluginLoading: true });
    const { url } = await server.listen();
    try {
      await sleep(100);
      const post = (path: string, signal?: AbortSignal) =>
        fetch(`${url}/plugins`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ path }), ...(signal ? { signal } : {}) });
      const clients = [new AbortController(), new AbortController()];
      const gone = clients.map((c) => post(join(dir, 'p.wasm'), c.signal).catch(() => undefined));
      await sleep(300);
      for (const c of clients) c.abort();
      await Promise.all(gone);
      const started = performance.now();
      const res = await post(new URL('../../plugins/calc/build/calc.wasm', import.meta.url).pathname);
      assert.equal(res.status, 201, await res.text());
      assert.ok(performance.now() - started < 5_000, `the next load waited ${(performance.now() - started).toFixed(0)} ms`);
    } finally {
      closeSync(writer);
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
  'a HookResponse reason one character past its cap is refused (BAD_OUTPUT, the guard fails closed); at the cap it is kept': async () => {
    const ran: string[] = [];
    const bash = dist.tool('Bash', 'Run a command', z.object({ command: z.string() }), ({ command }) => (ran.push(command), 'ok'));
    for (const [fn, n] of [['long', 131_073], ['short', 131_072]] as const) {
      const guard = await dist.loadPlugin({ bytes: await hostile('fix3-reason', (src) => asGuard(src, fn)) }, { limits: { timeoutMs: 10_000 } });
      try {
        const host = createHost({ tools: [bash], plugins: [guard], permissionMode: 'bypassPermissions', model: scriptedModel([{ toolCalls: [{ name: 'Bash', id: 'b1', input: { command: 'ls' } }] }, { text: 'done' }]) });
        const events: HostEvent[] = [];
        for await (const e of host.session().stream('go')) events.push(e);
        const end = events.find((e) => e.type === 'hook.end' && e.event === 'PreToolUse');
        if (n > 131_072) {
          assert.ok(end?.type === 'hook.end' && end.failure?.code === 'BAD_OUTPUT' && /above its cap of 131072/.test(end.failure.message), JSON.stringify(end).slice(0, 300));
          assert.ok(events.some((e) => e.type === 'tool.denied'), 'a PreToolUse guard that fails is closed: the call is denied');
          assert.equal(ran.length, 0);
        } else {
          assert.ok(end?.type === 'hook.end' && end.failure === undefined && end.decision === 'allow' && end.reason?.length === n, JSON.stringify(end).slice(0, 300));
          assert.deepEqual(ran, ['ls']);
        }
      } finally {
        await guard.close();
      }
    }
  },
};
