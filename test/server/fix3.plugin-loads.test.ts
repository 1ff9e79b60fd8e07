// fix3 item 5: a plugin load stops when its HTTP client leaves (waiting for a slot or running) and holds a
// slot for at most LOAD_SLOT_MS. Before, a FIFO whose writer idled held one of the two slots for 60 s, and a
// load went on after its client had gone: two such requests made every other load wait a minute.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPlugin } from '../../host/plugins/load.js';
import { readFileCapped } from '../../host/plugins/source.js';
import { createServer } from '../../host/server/app.js';
import { PluginLoadGate } from '../../host/server/plugin-loads.js';
import { realHost } from './real-host.js';

const CALC = new URL('../../plugins/calc/build/calc.wasm', import.meta.url).pathname;
let dir: string;
let writer: number | undefined;
const fifo = () => join(dir, 'p.wasm');

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fix3-fifo-'));
  execFileSync('mkfifo', [fifo()]);
  // A writer that is there and sends nothing: our own descriptor, open for reading and writing (a writer still in
  // its open() would make the server's first read an empty file at once, and the test pass for the wrong reason).
  writer = openSync(fifo(), constants.O_RDWR | constants.O_NONBLOCK);
});
afterEach(() => {
  if (writer !== undefined) closeSync(writer);
  writer = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('plugin loads and idle FIFOs (fix3)', () => {
  it('readFileCapped stops waiting for an idle writer when its signal aborts', async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error('its HTTP client left')), 200);
    const started = Date.now();
    await expect(readFileCapped(fifo(), 1024, stop.signal)).rejects.toThrow('its HTTP client left');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a slot is held for at most its bound, then the load is stopped with a message saying why', async () => {
    const gate = new PluginLoadGate(150);
    const started = Date.now();
    await expect(gate.run((signal) => readFileCapped(fifo(), 1024, signal))).rejects.toThrow(/held a plugin-load slot for 150 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a load waiting for a turn gives its place up when its client leaves', async () => {
    const gate = new PluginLoadGate(60_000);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const running = [gate.run(() => held), gate.run(() => held)];
    const client = new AbortController();
    let ran = false;
    const waiting = gate.run(async () => void (ran = true), client.signal);
    client.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    release();
    await Promise.all(running);
    expect(ran).toBe(false);
    // The slots are free again: two loads run at once.
    await Promise.all([gate.run(async () => 1), gate.run(async () => 2)]);
  });

  it('POST /plugins: two requests naming an idle FIFO whose clients leave do not hold the slots; the next load runs at once', async () => {
    const host = { ...realHost(), plugins: () => [], loadPlugin: (source: Parameters<typeof loadPlugin>[0]) => loadPlugin(source) };
    const server = createServer(host as never, { allowPluginLoading: true });
    try {
      const post = (path: string, signal?: AbortSignal) =>
        Promise.resolve(server.app.request('/plugins', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path }), ...(signal ? { signal } : {}) }));
      const leaving = [new AbortController(), new AbortController()];
      const gone = leaving.map((c) => post(fifo(), c.signal).catch(() => undefined));
      await new Promise((r) => setTimeout(r, 200));
      for (const c of leaving) c.abort(new Error('its HTTP client left'));
      await Promise.all(gone);
      const started = Date.now();
      const res = await post(CALC);
      expect(res.status, await res.clone().text()).toBe(201);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await server.close();
    }
  }, 20_000);
});
