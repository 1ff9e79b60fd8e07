// hk4 (house-keeping: bounds and a race) on Node, Deno and Bun against the build. Each fails on the code before.
// 1. A client that posts the next prompt as soon as it sees agent.end got 409 while the ended prompt stored its
//    lastResult and released its lease: the next prompt now waits for the release (one process, a shared store).
// 2. Transcripts were read whole: now a line at a time within caps (size, bytes a line, lines), STORE_UNAVAILABLE
//    naming the file and the line, nothing loaded or truncated.
// 3. openStore's options are checked (zod) before anything opens: INVALID_OPTIONS naming the field, never the URL.
// 4. MCP: a JSON-RPC batch of tools/call ran every call at once; now at most maxConcurrentCalls (default 8).
// Vitest twins: test/server/hk4.next-prompt, test/store/hk4.transcript-limits and hk4.store-spec, test/mcp/hk4.mcp-calls.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import * as dist from '../../dist/index.js';
import { mcpHttpApp, relayModel } from '../../dist/mcp.js';
import { createServer } from '../../dist/server.js';

type Store = Awaited<ReturnType<typeof dist.openStore>>['store'];

async function nextPromptOnEnd(shared: boolean): Promise<void> {
  const { store } = await dist.openStore({ kind: 'memory' });
  if (shared) Object.defineProperty(store, 'shared', { value: true });
  const update = store.update.bind(store);
  // The window between agent.end and the release, made wide: the lastResult write is slow.
  store.update = async (...args: Parameters<Store['update']>) => {
    if (args[1].lastResult) await new Promise((r) => setTimeout(r, 150));
    return update(...args);
  };
  const server = createServer(dist.createHost({ model: dist.scriptedModel({ rules: [{ when: () => true, reply: { text: 'fine' } }] }) }), { store });
  try {
    const post = (path: string, body: unknown) => server.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const id = ((await (await post('/session', {})).json()) as { id: string }).id;
    const res = await server.app.request(`/event?session=${id}`);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    assert.equal((await post(`/session/${id}/prompt`, { prompt: 'one' })).status, 202);
    let text = '';
    while (!text.includes('"agent.end"')) text += (await reader.read()).value ?? '';
    await reader.cancel();
    const next = await post(`/session/${id}/prompt`, { prompt: 'two' });
    assert.equal(next.status, 202, `the next prompt, posted on agent.end: ${next.status} ${await next.text()}`);
    for (let i = 0; i < 500 && (await store.get(id))?.prompts !== 2; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal((await store.get(id))?.prompts, 2);
  } finally {
    await server.close();
  }
}

async function refused(spec: unknown, message: RegExp): Promise<void> {
  const error = await dist.openStore(spec as never).then(
    () => undefined,
    (e: unknown) => e as { code?: string; message: string },
  );
  assert.equal(error?.code, 'INVALID_OPTIONS', `${JSON.stringify(spec)}: ${error?.message}`);
  assert.match(error.message, message);
  assert.ok(!error.message.includes('s3cret'), error.message);
}

export const scenarios: Record<string, () => Promise<void>> = {
  'the next prompt, posted as agent.end arrives, is accepted (one process)': () => nextPromptOnEnd(false),
  'the next prompt, posted as agent.end arrives, is accepted (a shared store)': () => nextPromptOnEnd(true),
  'data dir: a transcript past its line count or line size is STORE_UNAVAILABLE naming file:line, left as it was': async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wasmhooks-hk4-'));
    const opened = await dist.openStore({ kind: 'file', dataDir, maxTranscriptLines: 3, maxTranscriptLineBytes: 1000 });
    try {
      for (const id of ['many', 'long']) await opened.store.create({ id, createdAt: 1, prompts: 0, options: {} });
      const line = '{"role":"user","content":"x"}\n';
      writeFileSync(opened.store.transcriptPath('many')!, line.repeat(4));
      writeFileSync(opened.store.transcriptPath('long')!, `${line}{"role":"user","content":"${'y'.repeat(70_000)}"}\n`);
      await assert.rejects(opened.store.messages('many'), (e: { code: string; message: string }) => e.code === 'STORE_UNAVAILABLE' && /many\.jsonl:4: the transcript holds more than 3 lines/.test(e.message));
      await assert.rejects(opened.store.messages('long'), (e: { code: string; message: string }) => e.code === 'STORE_UNAVAILABLE' && /long\.jsonl:2: the transcript line 2 is longer than 1000 bytes/.test(e.message));
      assert.equal(readFileSync(opened.store.transcriptPath('many')!, 'utf8'), line.repeat(4));
    } finally {
      await opened.close();
    }
  },
  'data dir: lines across read chunks (UTF-8 split, a torn last line cut off) read as before': async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wasmhooks-hk4-'));
    const opened = await dist.openStore({ kind: 'file', dataDir });
    try {
      await opened.store.create({ id: 's', createdAt: 1, prompts: 0, options: {} });
      const messages = Array.from({ length: 30 }, (_, i) => ({ role: 'user', content: '€😀'.repeat(1500 + i) }));
      const clean = messages.map((m) => `${JSON.stringify(m)}\n`).join('');
      writeFileSync(opened.store.transcriptPath('s')!, `${clean}{"role":"us`);
      assert.deepEqual(await opened.store.messages('s'), messages);
      assert.equal(readFileSync(opened.store.transcriptPath('s')!, 'utf8'), clean);
    } finally {
      await opened.close();
    }
  },
  'openStore: a bad replayWindow, replayMaxAgeMs, URL scheme, prefix or line cap is INVALID_OPTIONS naming it, not the password': async () => {
    const url = 'redis://:s3cret@127.0.0.1:1/0';
    await refused({ kind: 'redis', url, replayWindow: -1 }, /replayWindow must be at least 1/);
    await refused({ kind: 'redis', url, replayWindow: '500' }, /replayWindow must be a number/);
    await refused({ kind: 'redis', url, replayMaxAgeMs: -5 }, /replayMaxAgeMs must be at least 1000/);
    await refused({ kind: 'redis', url: 'http://:s3cret@127.0.0.1:1' }, /url must be a redis:\/\/ or rediss:\/\/ URL/);
    await refused({ kind: 'redis', url, prefix: 'my app' }, /prefix \(the Redis key prefix\)/);
    await refused({ kind: 'file', dataDir: '/tmp/x', maxTranscriptLines: 0 }, /maxTranscriptLines must be at least 1/);
  },
  'MCP over HTTP: a JSON-RPC batch of 30 tools/call runs at most 8 at once, every call answered': async () => {
    const state = { now: 0, most: 0 };
    const slow = dist.tool('slow', 'holds a while', z.object({}), async () => {
      state.now++;
      state.most = Math.max(state.most, state.now);
      await new Promise((r) => setTimeout(r, 50));
      state.now--;
      return 'done';
    });
    const served = await mcpHttpApp(dist.createHost({ model: relayModel(), tools: [slow], permissionMode: 'bypassPermissions' }), { port: 0 }).listen();
    try {
      const batch = Array.from({ length: 30 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'slow', arguments: {} } }));
      const res = await fetch(`${served.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-03-26' },
        body: JSON.stringify(batch),
      });
      const answers = (await res.json()) as { result?: { content: { text: string }[] } }[];
      assert.equal(answers.length, 30);
      assert.ok(answers.every((a) => a.result?.content[0]?.text === 'done'));
      assert.equal(state.most, 8);
    } finally {
      await served.close();
    }
  },
};
