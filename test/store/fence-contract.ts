// The fencing contract every SessionStore keeps (fix3), checked on memory, a data directory and Redis, under vitest
// and on Node, Deno and Bun (test/xrt/fix3.xrt.ts). Only node:assert at run time, so both can import it.
import assert from 'node:assert/strict';
import type { SessionStore } from '../../host/store/types.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] }) as never;

export async function fenceContract(store: SessionStore, prefix: string): Promise<void> {
  const id = `${prefix}-fence`;
  await store.create({ id, createdAt: Date.now(), prompts: 0, options: {} });
  const first = await store.acquire(id, 'a', 40);
  assert.equal(typeof first, 'number');
  const fence = first as number;
  assert.equal(await store.appendMessages(id, [say('one')], fence), true);
  await sleep(120); // the lease lapses; nobody takes the session
  assert.equal(await store.leaseOwner(id), undefined);
  assert.equal(await store.renew(id, 'a', 60_000, fence), true, 'the token is current: the lease is taken again');
  assert.equal(await store.leaseOwner(id), 'a');
  assert.equal(await store.appendMessages(id, [say('two')], fence), true);
  assert.equal(await store.update(id, { prompts: 1, resumeAt: { seq: 9, turn: 1 } }, fence), true);
  assert.equal((await store.get(id))?.resumeAt?.seq, 9);
  await store.release(id, 'a');
  // Released and taken by another owner: the old token writes nothing any more, in any form.
  const second = await store.acquire(id, 'b', 60_000);
  assert.equal(typeof second, 'number');
  assert.notEqual(second, fence);
  assert.equal(await store.appendMessages(id, [say('stale')], fence), false);
  assert.equal(await store.replaceMessages(id, [say('stale')], fence), false);
  assert.equal(await store.update(id, { prompts: 99, resumeAt: { seq: 99, turn: 9 } }, fence), false);
  assert.equal(await store.renew(id, 'a', 60_000, fence), false);
  assert.equal(await store.leaseOwner(id), 'b');
  assert.deepEqual((await store.messages(id)).map((m) => (m as { content: { text: string }[] }).content[0]!.text), ['one', 'two']);
  assert.equal((await store.get(id))?.prompts, 1);
  assert.equal(await store.appendMessages(id, [say('three')], second as number), true);
  // An orphan claimed (the sweep's take-over) ends its token too, though nobody acquired since.
  await sleep(0);
  const other = `${prefix}-orphan`;
  await store.create({ id: other, createdAt: Date.now(), prompts: 0, options: {} });
  const third = (await store.acquire(other, 'c', 40)) as number;
  await sleep(120);
  assert.deepEqual((await store.orphans()).filter((o) => o.id === other), [{ id: other, owner: 'c' }]);
  assert.equal(await store.claimOrphan(other, 'c'), true);
  assert.equal(await store.appendMessages(other, [say('late')], third), false);
  assert.equal(await store.renew(other, 'c', 60_000, third), false);
  assert.deepEqual(await store.messages(other), []);
  // Unfenced writes (a library session, a single process between prompts) are unchanged.
  assert.equal(await store.appendMessages(other, [say('free')]), true);
  assert.equal((await store.messages(other)).length, 1);
}
