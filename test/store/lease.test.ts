// Prompt leases without Redis: a replica cut off from its store aborts its
// prompt after one lease period, and a result from a prompt whose lease was
// lost does not overwrite what the store says.
import { afterEach, describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { MemorySessionStore } from '../../host/store/memory.js';
import { call, until } from '../server/helpers.js';
import { realHost } from '../server/real-host.js';

/** A store whose connection can be cut: every call rejects while `down`. */
class FlakyStore extends MemorySessionStore {
  down = false;
  override async renew(id: string, owner: string, ttlMs: number): Promise<boolean> {
    if (this.down) throw new WasmhooksError('STORE_UNAVAILABLE', 'cut off');
    return super.renew(id, owner, ttlMs);
  }
}

let server: WasmhooksServer | undefined;
afterEach(async () => server?.close());

describe('prompt leases', () => {
  it('a replica that cannot renew its lease for a lease period aborts its prompt', async () => {
    const store = new FlakyStore();
    server = createServer(realHost(), { store, leaseMs: 300 });
    const { json: s } = await call(server, 'POST', '/session', {});
    await call(server, 'POST', `/session/${s.id}/prompt`, { prompt: 'wait' });
    await until(async () => (await store.leaseOwner(s.id)) === server!.replica);
    store.down = true;
    const started = Date.now();
    await until(async () => (await store.get(s.id))?.running === undefined, 3000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    // The prompt stopped (nobody could confirm its lease). Nobody took the session over meanwhile (this
    // server's own sweep leaves a prompt it runs alone), so its result is stored under its fencing token (fix3).
    await until(async () => (await call(server!, 'GET', `/session/${s.id}`)).json.state === 'idle', 3000);
    await new Promise((r) => setTimeout(r, 50));
    expect((await store.get(s.id))?.lastResult?.subtype).toBe('aborted');
  });

  it('two prompts racing for one session: exactly one starts, the other is 409', async () => {
    const store = new MemorySessionStore();
    server = createServer(realHost(), { store, leaseMs: 300 });
    const { json: s } = await call(server, 'POST', '/session', {});
    const statuses = await Promise.all([1, 2, 3].map(() => call(server!, 'POST', `/session/${s.id}/prompt`, { prompt: 'wait' }).then((r) => r.status)));
    expect(statuses.sort()).toEqual([202, 409, 409]);
    expect((await store.get(s.id))?.prompts).toBe(1);
  });

  it('a lost lease (taken over after expiry) aborts the prompt, and its late result is not stored', async () => {
    const store = new MemorySessionStore();
    server = createServer(realHost(), { store, leaseMs: 300 });
    const { json: s } = await call(server, 'POST', '/session', {});
    await call(server, 'POST', `/session/${s.id}/prompt`, { prompt: 'wait' });
    await until(async () => (await store.leaseOwner(s.id)) === server!.replica);
    // Another replica declares it interrupted and takes it (as if this one had been unreachable).
    await store.claimOrphan(s.id, server.replica);
    await store.release(s.id, server.replica);
    await store.update(s.id, { lastResult: { subtype: 'error_during_execution', text: '', turns: 0, durationMs: 0, error: { code: 'INTERRUPTED', message: 'x' } } });
    expect(await store.acquire(s.id, 'other', 60_000)).toEqual(expect.any(Number));
    await until(async () => (await call(server!, 'GET', `/session/${s.id}`)).json.state === 'idle', 3000);
    await new Promise((r) => setTimeout(r, 50));
    expect((await store.get(s.id))?.lastResult?.error?.code).toBe('INTERRUPTED');
    expect(await store.leaseOwner(s.id)).toBe('other');
  });
});
