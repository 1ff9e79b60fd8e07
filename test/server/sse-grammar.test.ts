// The conformance review's SSE check: the rich session (test/agent/hostile.ts) run over HTTP; the
// host events of its `/event?session=` stream, decoded, equal the events the session emitted in
// process, one for one, and satisfy the grammar (host/events/grammar.ts); so does a replay of the
// same stream from where it began (Last-Event-ID), and a second prompt after the server rebuilt the
// session from its data directory (a restart).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { createHost, scriptedModel } from '../../host/index.js';
import { eventGrammarViolations } from '../../host/events/grammar.js';
import type { Host } from '../../host/host.js';
import type { HostEvent } from '../../host/events/types.js';
import { openStore } from '../../host/store/open.js';
import { richHost } from '../agent/hostile.js';
import { violationLines } from '../agent/trace.js';
import { call, readSse, until } from './helpers.js';
import { MemorySessionStore } from '../../host/store/memory.js';

let server: WasmhooksServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  server = dir = undefined;
});

/** The host, with every event of every session it makes also recorded in process. */
function spied(host: Host): { host: Host; seen: HostEvent[] } {
  const seen: HostEvent[] = [];
  const spy: Host = Object.create(host);
  spy.session = (options) => {
    const session = host.session(options);
    session.subscribe((e) => void seen.push(JSON.parse(JSON.stringify(e)) as HostEvent), { buffer: Infinity });
    return session;
  };
  return { host: spy, seen };
}

const isHost = (d: { type: string }) => !/^(server|session|replay|prompt|control|event)\./.test(d.type);

/** Runs one prompt over HTTP and returns the session stream's frames up to its agent.end. */
async function prompt(s: WasmhooksServer, id: string, text: string, lastEventId?: string) {
  const res = await s.app.request(`/event?session=${id}`, lastEventId ? { headers: { 'last-event-id': lastEventId } } : {});
  const reading = readSse(res.body!, (m) => m.some((f) => JSON.parse(f.data).type === 'agent.end'), 20_000);
  expect((await call(s, 'POST', `/session/${id}/prompt`, { prompt: text })).status).toBe(202);
  return reading;
}

describe('SSE frames are the in-process events', () => {
  it('one for one, in order, and grammatical; so is their replay', async () => {
    const { host, seen } = spied(richHost({ createHost, scriptedModel }, { allowedTools: ['Look', 'Change', 'agent'] }).host);
    server = createServer(host);
    const { json } = await call(server, 'POST', '/session', {});
    const frames = await prompt(server, json.id, 'go');
    const decoded = frames.map((f) => JSON.parse(f.data)).filter(isHost) as HostEvent[];
    await new Promise((r) => setTimeout(r, 10));
    const sent = seen.filter((e) => e.seq <= (decoded.at(-1)?.seq ?? 0));
    expect(decoded.length).toBeGreaterThan(100);
    expect(decoded).toEqual(sent);
    // Frame ids (<epoch>.<position>) increase with every frame of the stream.
    const positions = frames.slice(1).map((f) => Number(f.id?.split('.')[1]));
    expect(positions.every((p, i) => Number.isSafeInteger(p) && (i === 0 || p > positions[i - 1]!))).toBe(true);
    expect(violationLines(eventGrammarViolations(decoded))).toEqual([]);
    // A reconnect from where the stream began (server.connected's lastEventId) replays the same events again.
    const from = (JSON.parse(frames[0]!.data) as { type: string; lastEventId: string });
    expect(from.type).toBe('server.connected');
    const again = await server.app.request(`/event?session=${json.id}`, { headers: { 'last-event-id': from.lastEventId } });
    const replayed = (await readSse(again.body!, (m) => m.some((f) => JSON.parse(f.data).type === 'agent.end'))).map((f) => JSON.parse(f.data)).filter(isHost);
    expect(replayed).toEqual(decoded);
    expect(violationLines(eventGrammarViolations(replayed))).toEqual([]);
    // The same, through /global/event's envelope.
    const global = await server.app.request('/global/event', { headers: { 'last-event-id': from.lastEventId } });
    const enveloped = (await readSse(global.body!, (m) => m.some((f) => JSON.parse(f.data).event.type === 'agent.end'))).map((f) => JSON.parse(f.data) as { sessionId: string | null; event: HostEvent });
    expect(enveloped.filter((d) => d.sessionId === json.id && isHost(d.event)).map((d) => d.event)).toEqual(decoded);
  });

  it('a session rebuilt from its data directory after a restart streams grammatical prompts', async () => {
    dir = await mkdtemp(join(tmpdir(), 'wh-conf2-'));
    const model = () => scriptedModel({ rules: [{ when: () => true, reply: { text: 'fine' } }] });
    const first = await openStore({ kind: 'file', dataDir: dir });
    server = createServer(createHost({ model: model() }), { store: first.store });
    const { json } = await call(server, 'POST', '/session', {});
    const one = (await prompt(server, json.id, 'one')).map((f) => JSON.parse(f.data)).filter(isHost) as HostEvent[];
    expect(violationLines(eventGrammarViolations(one))).toEqual([]);
    await server.close();
    await first.close?.();
    const second = await openStore({ kind: 'file', dataDir: dir });
    server = createServer(createHost({ model: model() }), { store: second.store });
    const two = (await prompt(server, json.id, 'two')).map((f) => JSON.parse(f.data)).filter(isHost) as HostEvent[];
    // The rebuilt session counts on: its events after the first prompt's, its prompt the second.
    expect(two[0]).toMatchObject({ type: 'agent.start', sessionId: json.id, turn: 2, seq: (one.at(-1)?.seq ?? 0) + 1 });
    expect(violationLines(eventGrammarViolations(two))).toEqual([]);
    expect(violationLines(eventGrammarViolations([...one, ...two], { span: 'session' }))).toEqual([]);
    await second.close?.();
  });

  it('on a shared store (the session rebuilt for each prompt) one session\'s events keep one seq order', async () => {
    const store = new MemorySessionStore();
    Object.defineProperty(store, 'shared', { value: true });
    server = createServer(createHost({ model: scriptedModel({ rules: [{ when: () => true, reply: { text: 'fine' } }] }) }), { store });
    const { json } = await call(server, 'POST', '/session', {});
    const all: HostEvent[] = [];
    for (const text of ['one', 'two', 'three']) {
      await until(async () => !(await call(server!, 'GET', `/session/${json.id}`)).json.running);
      all.push(...((await prompt(server, json.id, text)).map((f) => JSON.parse(f.data)).filter(isHost) as HostEvent[]));
    }
    expect(all.filter((e) => e.type === 'agent.start').map((e) => (e as { turn: number }).turn)).toEqual([1, 2, 3]);
    expect(violationLines(eventGrammarViolations(all, { span: 'session' }))).toEqual([]);
  });
});
