// rv15 (review of fix3 item 1): agent.end waits for the prompt's store writes, with no bound, so a store that stops
// answering (a custom store, a network store without a command timeout) kept the end in and prompt() pending forever.
// Now the end goes out at most 5 s later, exactly once, and the stream's grammar holds. Shared by vitest and xrt.
import assert from 'node:assert/strict';
import type { SessionStore } from '../../host/store/types.js';
import { interceptStore } from './intercept.ts';
import { WRITES } from './late-writes.ts';

interface Deps {
  createHost: (options: { model: unknown; store: SessionStore }) => { resume(id: string): Promise<{ subscribe(fn: (e: { type: string }) => void): unknown; prompt(text: string): Promise<{ subtype: string }> }> };
  scriptedModel: (options: unknown) => unknown;
  eventGrammarViolations: (events: unknown[], options: { span: 'prompt' }) => unknown[];
}

export async function stalledStoreEnd(deps: Deps, inner: SessionStore): Promise<void> {
  let stall = false;
  const store = interceptStore(inner, WRITES, (write) => (...a) => (stall ? new Promise(() => {}) : write(...a)));
  await inner.create({ id: 'rv15-stall', createdAt: Date.now(), prompts: 0, options: {} });
  const session = await deps.createHost({ model: deps.scriptedModel({ rules: [{ when: () => true, reply: { text: 'Hello.' } }] }), store }).resume('rv15-stall');
  const events: { type: string }[] = [];
  session.subscribe((e) => void events.push(e));
  stall = true;
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const result = await Promise.race([session.prompt('hi'), new Promise<'hung'>((r) => (timer = setTimeout(() => r('hung'), 9_000)))]);
  clearTimeout(timer);
  assert.notEqual(result, 'hung', 'prompt() settles while the store answers nothing');
  assert.equal((result as { subtype: string }).subtype, 'success');
  assert.ok(Date.now() - started < 8_000);
  assert.equal(events.filter((e) => e.type === 'agent.end').length, 1);
  assert.deepEqual(deps.eventGrammarViolations(events, { span: 'prompt' }), []);
}
