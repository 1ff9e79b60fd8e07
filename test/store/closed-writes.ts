// Nothing is written to a data directory once its store is closed, and nothing asked before is lost. Before:
// a session's SessionEnd was stored by a write nobody awaited, which could land after `close()` of the session
// and of the store had resolved (CI: Deno's `rm` of the directory failed ENOTEMPTY as the record was made
// again), and a write asked just before `store.close()` could run after the directory's lock was let go.
// Written against an Api (host/ under vitest: closed-writes.test.ts; dist/ on Node, Deno and Bun:
// test/xrt/store-close.xrt.ts). Returns what is wrong.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { createHost as CreateHost, HookInput, openStore as OpenStore, scriptedModel as ScriptedModel } from '../../host/index.js';

export interface ClosedWritesApi {
  createHost: typeof CreateHost;
  scriptedModel: typeof ScriptedModel;
  openStore: typeof OpenStore;
}

const same = (what: string, got: unknown, want: unknown, problems: string[]) => {
  if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${what}: got ${JSON.stringify(got)}, wanted ${JSON.stringify(want)}`);
};

async function codeOf(fn: () => Promise<unknown>): Promise<string> {
  try {
    await fn();
    return 'nothing';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const record = (dir: string, id: string) => JSON.parse(readFileSync(join(dir, 'sessions', `${id}.json`), 'utf8')) as { prompts: number; resumeAt?: { seq: number } };
const files = (dir: string) => readdirSync(join(dir, 'sessions')).sort();

/** A write asked before `close()` is done when it resolves; one asked after is refused and makes no file. */
export async function storeClose(api: ClosedWritesApi, dir: string): Promise<string[]> {
  const problems: string[] = [];
  const opened = await api.openStore({ kind: 'file', dataDir: dir });
  const { store } = opened;
  await store.create({ id: 's1', createdAt: 1, prompts: 0, options: {} });
  const message = { role: 'user' as const, content: 'hi' };
  // Asked, not awaited, then the store closes at once.
  const asked = [store.update('s1', { prompts: 7 }), store.appendMessages('s1', [message]), store.create({ id: 's2', createdAt: 2, prompts: 0, options: {} })];
  await opened.close();
  same('writes asked before close', await Promise.all(asked), [true, true, true], problems);
  same('the record after close', record(dir, 's1').prompts, 7, problems);
  const after = files(dir);
  same('files after close', after.filter((f) => !f.startsWith('.')), ['s1.json', 's1.jsonl', 's2.json'], problems);
  same('create after close', await codeOf(() => store.create({ id: 's3', createdAt: 3, prompts: 0, options: {} })), 'STORE_UNAVAILABLE', problems);
  same('append after close', await codeOf(() => store.appendMessages('s2', [message])), 'STORE_UNAVAILABLE', problems);
  same('update after close', await codeOf(() => store.update('s1', { prompts: 8 })), 'STORE_UNAVAILABLE', problems);
  await sleep(30);
  same('files a while after', files(dir), after, problems);
  same('the record a while after', record(dir, 's1').prompts, 7, problems);
  return problems;
}

/** `session.close()` resolves once its SessionEnd's events are stored: a store closed next keeps them (resumeAt). */
export async function sessionCloseStored(api: ClosedWritesApi, dir: string): Promise<string[]> {
  const problems: string[] = [];
  const opened = await api.openStore({ kind: 'file', dataDir: dir });
  const host = api.createHost({
    model: api.scriptedModel({ rules: [{ when: () => true, reply: { text: 'fine' } }] }),
    store: opened.store,
    hooks: { SessionEnd: [{ hooks: [async (_input: HookInput) => ({})] }] },
  });
  let last = 0;
  const session = host.session();
  session.subscribe((event) => void (last = Math.max(last, event.seq)));
  await session.prompt('one');
  const atEnd = last;
  await session.close();
  await opened.close();
  // Read at once: what a process that exits now, or another that opens the directory now, finds.
  const stored = record(dir, session.id).resumeAt?.seq;
  const after = files(dir);
  await sleep(30);
  // The SessionEnd hook's own events came after the prompt's end: the stored count must cover them.
  if (!(last > atEnd)) problems.push(`SessionEnd published no event after the prompt (last seq ${last})`);
  same('resumeAt.seq as close() resolved', stored, last, problems);
  same('files a while after', files(dir), after, problems);
  await host.close();
  return problems;
}
