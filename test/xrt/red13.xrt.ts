// Hostile review red13 (HTTP server, SSE, control bridge, stores, replicas, CLI/config, model HTTP clients)
// on Node, Deno and Bun, through the built ESM: each scenario is a hole, now closed. Vitest twins that
// fail on the old code: test/models/red13.provider.test.ts, test/server/red13.timers.test.ts (the rest fail on the old code here).
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { anthropicModel, createHost, type ModelEvent, openaiModel, openStore } from '../../dist/index.js';
import { createServer } from '../../dist/server.js';
import { endlessEventProvider, redirectingProvider, stallingProxy } from '../fixtures/red13-providers.ts';
import { HOW_TO_INSTALL, haveRedis, startRedis } from '../store/redis-server.ts';
import { postJson, writingHost } from './red6-helpers.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !check(); await sleep(5)) if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
}

const ask = () => ({ system: '', messages: [{ role: 'user' as const, content: 'the private conversation' }], tools: [], signal: new AbortController().signal });

async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

export const scenarios: Record<string, () => Promise<void>> = {
  'a provider redirecting the POST (301, 302, 303, 307, 308) to another origin gets neither the API key nor the conversation: BAD_REQUEST naming the redirect': async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      const provider = await redirectingProvider(status);
      try {
        const retry = { maxRetries: 2, sleep: async () => {} };
        const models = [
          openaiModel({ model: 'm', baseURL: provider.url, apiKey: 'sk-secret', headers: { 'x-gateway-key': 'gw-secret' }, retry }),
          anthropicModel({ model: 'm', baseURL: provider.url, apiKey: 'sk-ant-secret', retry }),
        ];
        for (const model of models) {
          const events = await collect(model.stream(ask()));
          const last = events.at(-1);
          assert.ok(last?.type === 'error', `${status}: ${JSON.stringify(events)}`);
          assert.equal(last.error.code, 'BAD_REQUEST', `${status}: ${last.error.message}`);
          assert.match(last.error.message, new RegExp(`HTTP ${status}, a redirect to http://localhost:\\d+;`));
          assert.ok(!last.error.message.includes('/steal'), last.error.message);
        }
        assert.deepEqual(provider.caught, [], `${status}: the collector was reached`);
      } finally {
        await provider.close();
      }
    }
  },

  'a provider event that never ends (one endless data line) is cut at MAX_PROVIDER_EVENT_BYTES: BAD_STREAM, the connection closed, memory bounded': async () => {
    const limit = 64 * 1024 * 1024;
    const provider = await endlessEventProvider(limit);
    try {
      const events = await collect(openaiModel({ model: 'm', baseURL: provider.url, retry: { maxRetries: 0 } }).stream(ask()));
      const last = events.at(-1);
      assert.ok(last?.type === 'error', JSON.stringify(events.slice(-2)).slice(0, 500));
      assert.equal(last.error.code, 'BAD_STREAM');
      assert.match(last.error.message, /MAX_PROVIDER_EVENT_BYTES/);
      // The rest was not read: the server stopped well short of its 64 MiB (socket buffers aside).
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(provider.sent() < 40 * 1024 * 1024, `sent ${provider.sent()}`);
    } finally {
      await provider.close();
    }
  },

  'controlTimeoutMs past 2^31 - 1 ms ("wait for the user") keeps a permission question open: it did not time out after 1 ms (denying every tool)': async () => {
    const server = createServer(writingHost(), { port: 0, heartbeatMs: 60_000, controlTimeoutMs: 3e9 });
    const { url } = await server.listen();
    try {
      const id = (await postJson(`${url}/session`, {})).json.id as string;
      assert.equal((await postJson(`${url}/session/${id}/prompt`, { prompt: 'write it' })).status, 202);
      await until(() => server.broker.pending(id).length === 1, 'the permission question');
      await sleep(150);
      const [request] = server.broker.pending(id);
      assert.ok(request, 'the question timed out');
      const answered = await postJson(`${url}/session/${id}/control-response`, { requestID: request.id, subtype: 'can_use_tool', response: { behavior: 'allow' } });
      assert.deepEqual(answered.json, { resolved: true });
      await until(() => server.broker.pending(id).length === 0, 'the answer');
    } finally {
      await server.close();
    }
  },

  'heartbeatMs past 2^31 - 1 ms sends no heartbeat (setInterval wrapped it to one per millisecond to every stream)': async () => {
    const server = createServer(writingHost(), { port: 0, heartbeatMs: 3e9 });
    const { url } = await server.listen();
    try {
      const res = await fetch(`${url}/global/event`);
      const reader = res.body!.getReader();
      let text = '';
      const stop = setTimeout(() => void reader.cancel(), 300);
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          text += new TextDecoder().decode(value);
        }
      } finally {
        clearTimeout(stop);
      }
      assert.ok(text.includes('server.connected'), text.slice(0, 200));
      const beats = text.split(': heartbeat').length - 1;
      assert.equal(beats, 0, `${beats} heartbeats in 300 ms`);
    } finally {
      await server.close();
    }
  },

  'a Redis that stops answering on an open connection fails each store call with STORE_UNAVAILABLE within seconds (it held every request, and the lease renewal that stops a prompt, forever)': async () => {
    if (!haveRedis()) return console.log(`  (skipped: ${HOW_TO_INSTALL})`);
    const redis = await startRedis({ persist: false });
    const proxy = await stallingProxy(redis.port);
    try {
      const opened = await openStore({ kind: 'redis', url: proxy.url, prefix: `red13-${Date.now()}:` });
      try {
        const record = { id: 's1', createdAt: Date.now(), prompts: 0, options: {} };
        assert.equal(await opened.store.create(record), true);
        proxy.stall();
        const started = Date.now();
        // The renewal is sent while the read waits, both on the stalled connection: each fails on its own
        // command timeout (5 s), so the scenario waits for one timeout, not two in a row.
        const renewing = opened.store.renew('s1', 'r1', 10_000).then(() => 'answered', (error: { code?: string }) => error.code ?? 'other');
        const outcome = await Promise.race([
          opened.store.get('s1').then(
            () => 'answered',
            (error: { code?: string }) => error.code ?? 'other',
          ),
          sleep(12_000).then(() => 'still waiting after 12 s'),
        ]);
        assert.equal(outcome, 'STORE_UNAVAILABLE');
        assert.ok(Date.now() - started < 8_000, `${Date.now() - started} ms`);
        assert.equal(await renewing, 'STORE_UNAVAILABLE');
      } finally {
        await proxy.close();
        await opened.close();
      }
    } finally {
      await redis.dispose();
    }
  },

  'a data directory another user could swap (under a directory writable by everyone, or sessions/ a symbolic link) is refused, not written through': async () => {
    const base = await mkdtemp(join(tmpdir(), 'red13-'));
    const opens = async (dataDir: string) =>
      openStore({ kind: 'file', dataDir }).then(
        async (opened) => (await opened.close(), 'opened'),
        (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
      );
    try {
      // Everyone may rename entries of `open/`: refused (before anything is written under it).
      await mkdir(join(base, 'open'));
      await chmod(join(base, 'open'), 0o777);
      assert.match(await opens(join(base, 'open', 'data')), /^STORE_UNAVAILABLE: .*writable by every user/);
      // A link planted as sessions/ (to a directory that collects the transcripts): refused, its target untouched.
      await mkdir(join(base, 'linked'), { mode: 0o700 });
      await mkdir(join(base, 'elsewhere'), { mode: 0o755 });
      await symlink(join(base, 'elsewhere'), join(base, 'linked', 'sessions'));
      assert.match(await opens(join(base, 'linked')), /^STORE_UNAVAILABLE: .*symbolic link/);
      // The sticky bit (as /tmp) and group-writable directories are fine.
      await mkdir(join(base, 'sticky'));
      await chmod(join(base, 'sticky'), 0o1777);
      assert.equal(await opens(join(base, 'sticky', 'data')), 'opened');
      await mkdir(join(base, 'group'));
      await chmod(join(base, 'group'), 0o770);
      assert.equal(await opens(join(base, 'group', 'data')), 'opened');
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  },

  'a model answer that streams without end stops at maxConversationChars with BAD_STREAM (it was held and sent to every watcher until memory ran out)': async () => {
    let sent = 0;
    const endless = {
      id: 'endless',
      async *stream(): AsyncIterable<ModelEvent> {
        yield { type: 'message.start', model: 'endless' };
        // 20 MB, then an end: the old code took all of it (and would have gone on).
        for (; sent < 20_000; sent++) yield sent % 2 ? { type: 'text.delta', text: 'x'.repeat(1000) } : { type: 'thinking.delta', text: 'y'.repeat(1000) };
        yield { type: 'message.end', stopReason: 'end_turn', usage: { inputTokens: 0, outputTokens: 0 } };
      },
    };
    const host = createHost({ model: endless, maxConversationChars: 100_000 });
    const session = host.session();
    let deltas = 0;
    let end: unknown;
    for await (const event of session.stream('go')) {
      if (event.type === 'text.delta' || event.type === 'thinking.delta') deltas++;
      if (event.type === 'agent.end') end = event.result;
    }
    await host.close?.();
    const result = end as { subtype: string; error?: { code: string; message: string } };
    assert.equal(result.subtype, 'error_during_execution', JSON.stringify(result).slice(0, 300));
    assert.equal(result.error?.code, 'BAD_STREAM');
    assert.match(result.error?.message ?? '', /passed 100000 characters/);
    assert.ok(deltas <= 100 && sent <= 102, `${deltas} deltas shown, ${sent} pulled`);
  },

  'a damaged or misplaced Redis session record is named, not reported as Redis unreachable, and no longer takes down every session list': async () => {
    if (!haveRedis()) return console.log(`  (skipped: ${HOW_TO_INSTALL})`);
    const redis = await startRedis({ persist: false });
    const prefix = `red13-${Date.now()}:`;
    const opened = await openStore({ kind: 'redis', url: redis.url, prefix });
    const { default: IORedis } = await import('ioredis');
    const raw = new IORedis(redis.url, { lazyConnect: true });
    try {
      await raw.connect();
      for (const id of ['a', 'b', 'c', 'd']) assert.equal(await opened.store.create({ id, createdAt: Date.now(), prompts: 0, options: {} }), true);
      await raw.hset(`${prefix}s:a`, 'options', '{"permissionMode":');
      await raw.hset(`${prefix}s:b`, 'id', 'c');
      await raw.hset(`${prefix}s:d`, 'lastResult', '7');
      const listed = await opened.store.list();
      assert.deepEqual(listed.map((r) => r.id), ['c']);
      for (const [id, why] of [['a', /options is not a JSON object/], ['b', /names another session/], ['d', /lastResult is not a JSON object/]] as const) {
        const error = await opened.store.get(id).then(() => undefined, (e: { code?: string; message?: string }) => e);
        assert.equal(error?.code, 'STORE_UNAVAILABLE', id);
        assert.match(error?.message ?? '', new RegExp(`key ${prefix}s:${id} is damaged`));
        assert.match(error?.message ?? '', why);
        assert.doesNotMatch(error?.message ?? '', /unreachable/);
      }
      // A message that does not read is named too; a control entry that is no request of this session under its own id is none.
      await raw.rpush(`${prefix}m:c`, '{"role":"user","content":"ok"}', 'not json');
      const broken = await opened.store.messages('c').then(() => undefined, (e: { code?: string; message?: string }) => e);
      assert.equal(broken?.code, 'STORE_UNAVAILABLE');
      assert.match(broken?.message ?? '', new RegExp(`key ${prefix}m:c is damaged \\(message 1 `));
      const real = { id: 'r1', sessionId: 'c', subtype: 'elicitation', payload: { message: 'ok?' }, createdAt: 1, timeoutMs: 1000 };
      await raw.hset(`${prefix}c:c`, 'r1', JSON.stringify(real), 'junk', '{', 'r2', JSON.stringify({ ...real, id: 'r2', sessionId: 'a' }), 'r3', JSON.stringify({ ...real, id: 'other' }));
      assert.deepEqual((await opened.store.controls('c')).map((r) => r.id), ['r1']);
    } finally {
      raw.disconnect();
      await opened.close();
      await redis.dispose();
    }
  },

  'wasmhooks serve --token warns that the token shows in the process list (every local user can read it there and approve tool calls); WASMHOOKS_TOKEN does not': async () => {
    const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
    const runtime = 'Deno' in globalThis ? [process.execPath, 'run', '-A', cli] : 'Bun' in globalThis ? [process.execPath, cli] : [process.execPath, cli];
    const cwd = await mkdtemp(join(tmpdir(), 'red13-cli-'));
    const serve = (args: string[], env: Record<string, string>) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(runtime[0]!, [...runtime.slice(1), 'serve', '--port', '0', ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        child.stderr!.on('data', (d: Uint8Array) => (err += new TextDecoder().decode(d)));
        child.stdout!.on('data', (d: Uint8Array) => {
          out += new TextDecoder().decode(d);
          if (out.includes('serving on')) child.kill('SIGTERM');
        });
        child.on('error', reject);
        child.on('close', () => {
          clearTimeout(timer);
          if (!out.includes('serving on')) reject(new Error(`serve did not start: ${out} ${err}`));
          else resolve(err);
        });
      });
    try {
      assert.match(await serve(['--token', 'a-token-of-sixteen-chars'], {}), /--token is visible to every user of this machine in the process list/);
      assert.doesNotMatch(await serve([], { WASMHOOKS_TOKEN: 'a-token-of-sixteen-chars' }), /--token/);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  },
};

