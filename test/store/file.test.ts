// The data-directory store: JSONL transcripts that survive a crash mid-write,
// sessions that survive a restart of the server, transcript_path in hook
// inputs, host.resume(), and replay.gap for ids of a previous process.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { FileSessionStore } from '../../host/store/file.js';
import { readJsonl } from '../../host/store/jsonl.js';
import { call, readSse, until } from '../server/helpers.js';
import { realHost } from '../server/real-host.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'wasmhooks-data-'));
let servers: WasmhooksServer[] = [];
let stores: FileSessionStore[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const s of stores.splice(0)) await s.close();
});

async function open(dir: string) {
  const store = await FileSessionStore.open(dir);
  stores.push(store);
  return store;
}

function serve(store: FileSessionStore, host = realHost()) {
  const server = createServer(host, { store, leaseMs: 200 });
  servers.push(server);
  return server;
}

describe('JSONL transcripts', () => {
  it('drops a torn last line (no newline) and truncates it away, so the next append starts clean', async () => {
    const dir = dataDir();
    const path = join(dir, 't.jsonl');
    writeFileSync(path, '{"role":"user","content":"one"}\n{"role":"assistant","content":[{"type":"te');
    const read = await readJsonl(path);
    expect(read.records).toEqual([{ role: 'user', content: 'one' }]);
    expect(read.droppedBytes).toBeGreaterThan(0);
    expect(readFileSync(path, 'utf8')).toBe('{"role":"user","content":"one"}\n');
  });

  it('drops a last line that has its newline but is not JSON (the newline reached the disk first); refuses corruption in the middle', async () => {
    const dir = dataDir();
    const torn = join(dir, 'a.jsonl');
    writeFileSync(torn, '{"a":1}\n{"a":\n');
    expect((await readJsonl(torn)).records).toEqual([{ a: 1 }]);
    expect(readFileSync(torn, 'utf8')).toBe('{"a":1}\n');
    const bad = join(dir, 'b.jsonl');
    writeFileSync(bad, '{"a":1}\nnot json\n{"a":2}\n');
    await expect(readJsonl(bad)).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringContaining('b.jsonl:2 is not JSON') });
  });

  it('a session whose transcript was cut mid-write loads without the torn message and keeps working', async () => {
    const dir = dataDir();
    const store = await open(dir);
    let server = serve(store);
    const { json: s } = await call(server, 'POST', '/session', {});
    await call(server, 'POST', `/session/${s.id}/prompt`, { prompt: 'first' });
    await until(async () => (await call(server, 'GET', `/session/${s.id}`)).json.lastResult !== undefined);
    await server.close();
    await store.close();
    // A crash while the next message was being appended.
    appendFileSync(store.transcriptPath(s.id), '{"role":"user","content":"sec');
    const again = await open(dir);
    server = serve(again);
    const messages = (await call(server, 'GET', `/session/${s.id}/messages`)).json.messages;
    expect(messages).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [{ type: 'text', text: 'echo: first' }] },
    ]);
    expect(again.dropped.get(s.id)).toBe('{"role":"user","content":"sec'.length);
    await call(server, 'POST', `/session/${s.id}/prompt`, { prompt: 'second' });
    await until(async () => (await call(server, 'GET', `/session/${s.id}`)).json.prompts === 2 && !(await call(server, 'GET', `/session/${s.id}`)).json.running);
    const lines = readFileSync(again.transcriptPath(s.id), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((m) => m.content?.[0]?.text ?? m.content)).toEqual(['first', 'echo: first', 'second', 'echo: second']);
  });
});

describe('the data directory refuses ids that cannot be file names', () => {
  it('rejects separators and leading dots before touching the disk', async () => {
    const store = await open(dataDir());
    for (const id of ['../x', 'a/b', '..', '.hidden', 'a\\b']) {
      expect(() => store.transcriptPath(id)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
      await expect(store.messages(id)).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    }
  });
});

describe('serve with a data directory', () => {
  it('after a restart: sessions, last results and transcripts are intact, old event ids get replay.gap', async () => {
    const dir = dataDir();
    const store = await open(dir);
    const first = serve(store);
    const { json: s } = await call(first, 'POST', '/session', { title: 'kept' });
    const events = readSse((await first.app.request('/event')).body!, (m) => m.some((e) => JSON.parse(e.data).type === 'agent.end'));
    await call(first, 'POST', `/session/${s.id}/prompt`, { prompt: 'hello' });
    const oldId = (await events).at(-1)!.id;
    await until(async () => !(await call(first, 'GET', `/session/${s.id}`)).json.running);
    await first.close();
    await store.close();

    const second = serve(await open(dir));
    expect((await call(second, 'GET', '/session')).json.sessions).toEqual([
      expect.objectContaining({ id: s.id, title: 'kept', prompts: 1, running: false, lastResult: expect.objectContaining({ subtype: 'success', text: 'echo: hello' }) }),
    ]);
    const res = await second.app.request('/event', { headers: { 'last-event-id': oldId! } });
    const got = (await readSse(res.body!, (m) => m.length >= 2)).map((m) => JSON.parse(m.data));
    expect(got[1]).toMatchObject({ type: 'replay.gap', requestedAfter: oldId, reason: 'unknown-id', missed: null });
    // The conversation continues where it stopped: the model sees the earlier messages.
    await call(second, 'POST', `/session/${s.id}/prompt`, { prompt: 'again' });
    await until(async () => (await call(second, 'GET', `/session/${s.id}/messages`)).json.messages.length === 4);
  });

  it('a prompt cut off by a crash is reported interrupted on the next start', async () => {
    const dir = dataDir();
    const store = await open(dir);
    const first = serve(store);
    const { json: s } = await call(first, 'POST', '/session', {});
    await call(first, 'POST', `/session/${s.id}/prompt`, { prompt: 'use a tool' });
    await until(() => first.broker.pending(s.id).length === 1);
    // A crash: nothing closes, the record on disk still says running, and the process that held the directory is gone.
    servers = [];
    rmSync(join(dir, 'sessions', '.lock'));
    const second = serve(await open(dir));
    const res = await second.app.request('/event');
    const got = await readSse(res.body!, (m) => m.some((e) => JSON.parse(e.data).type === 'prompt.interrupted'));
    expect(JSON.parse(got.at(-1)!.data)).toMatchObject({ type: 'prompt.interrupted', sessionId: s.id });
    expect((await call(second, 'GET', `/session/${s.id}`)).json).toMatchObject({
      running: false,
      lastResult: { subtype: 'error_during_execution', error: { code: 'INTERRUPTED' } },
    });
    first.broker.close();
  });

  it('hook inputs carry transcript_path, the JSONL file of the session', async () => {
    const dir = dataDir();
    const store = await open(dir);
    const seen: unknown[] = [];
    const host = realHost({ hooks: { UserPromptSubmit: [{ hooks: [async (input) => (seen.push(input.transcript_path), {})] }] } });
    const server = serve(store, host);
    const { json: s } = await call(server, 'POST', '/session', {});
    await call(server, 'POST', `/session/${s.id}/prompt`, { prompt: 'hello' });
    await until(() => seen.length === 1);
    expect(seen).toEqual([join(dir, 'sessions', `${s.id}.jsonl`)]);
  });
});

describe('host.resume()', () => {
  it('continues a stored conversation in a new host', async () => {
    const dir = dataDir();
    const model = () => scriptedModel({ rules: [{ when: () => true, reply: (r) => ({ text: `seen ${r.messages.length}` }) }] });
    const firstStore = await open(dir);
    const first = createHost({ model: model(), store: firstStore });
    const session = first.session();
    expect((await session.prompt('one')).text).toBe('seen 1');
    await session.close();
    // A new host after a restart (a data directory serves one process at a time: see file-red3.test.ts).
    await firstStore.close();
    const store = await open(dir);
    const resumed = await createHost({ model: model(), store }).resume(session.id);
    expect(resumed.messages).toHaveLength(2);
    expect((await resumed.prompt('two')).text).toBe('seen 3');
    await until(async () => (await store.messages(session.id)).length === 4);
    await expect(createHost({ store }).resume('nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(createHost().resume('x')).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});
