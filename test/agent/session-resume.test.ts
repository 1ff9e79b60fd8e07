// SessionStart `source: 'resume'` when a stored session is continued (session-resume.ts; the same scenarios on
// Node, Deno and Bun against dist/ in test/xrt/session-resume.xrt.ts). On the old code a continued session
// fired no SessionStart at all: the data directory reopened by a new host saw ['startup'] where
// ['startup', 'resume'] was wanted, a `resume` matcher (JS or shell) never ran, the second replica was silent
// (['a:startup:1'] for ['a:startup:1', 'b:resume:3']), and a `history` or counted prompts started nothing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenedSessions } from '../../host/agent/opened.js';
import { createHost, openStore, scriptedModel, shellHooks } from '../../host/index.js';
import type { HookInput } from '../../host/hooks/types.js';
import type { Message } from '../../host/models/types.js';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';
import { encodeHookInput } from '../../host/protocol/hook-request.js';
import { createServer } from '../../host/server/app.js';
import { compactBeforeFirstPrompt, dataDirReopened, replicasOnSharedStore } from './session-resume.js';

const api = { createHost, scriptedModel, shellHooks, openStore, createServer };
let dir = '';

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wasmhooks-session-resume-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A host whose SessionStart hooks note `<source>:<turn>`. */
function noting() {
  const seen: string[] = [];
  const note = async (input: HookInput) => (input.hook_event_name === 'SessionStart' && seen.push(`${input.source}:${input.turn}`), {});
  const host = createHost({ model: scriptedModel({ rules: [{ when: () => true, reply: { text: 'fine' } }] }), hooks: { SessionStart: [{ hooks: [note] }] } });
  return { host, seen };
}

const history: Message[] = [
  { role: 'user', content: 'before' },
  { role: 'assistant', content: [{ type: 'text', text: 'yes' }] },
];

describe("SessionStart source 'resume' for a continued session", () => {
  it('a data directory reopened by a new host: resume once at its first prompt; matchers, JS and shell inputs', async () => {
    expect(await dataDirReopened(api, dir)).toEqual([]);
  });

  it('two replicas on a shared store: startup on the first, resume once on the second, never per rebuilt object', async () => {
    expect(await replicasOnSharedStore(api)).toEqual([]);
  });

  it('compact() before the first prompt: the session starts (resume) before the compaction does', async () => {
    expect(await compactBeforeFirstPrompt(api)).toEqual([]);
  });

  it('a session given a history: resume; an empty history, or none, is a fresh session: startup', async () => {
    const { host, seen } = noting();
    await host.session({ sessionId: 'h', history }).prompt('go');
    await host.session({ sessionId: 'e', history: [] }).prompt('go');
    await host.session().prompt('go');
    expect(seen).toEqual(['resume:1', 'startup:1', 'startup:1']);
  });

  it('counted prompts without messages (one refused by UserPromptSubmit) are a continued session', async () => {
    const { host, seen } = noting();
    await host.session({ sessionId: 'r', resumeAt: { seq: 9, turn: 1 } }).prompt('go');
    expect(seen).toEqual(['resume:2']);
  });

  it('the host that ran a session continues it without a second start; a fresh session reusing the id is startup', async () => {
    const { host, seen } = noting();
    const s = host.session({ sessionId: 'x' });
    await s.prompt('one');
    await host.session({ sessionId: 'x', history: s.messages }).prompt('two');
    await host.session({ sessionId: 'x' }).prompt('again');
    expect(seen).toEqual(['startup:1', 'startup:1']);
  });

  it('a WASM hook reads it as SessionPayload.reason', () => {
    const input: HookInput = { session_id: 's', cwd: '/', turn: 1, iteration: 0, permission_mode: 'default', hook_event_name: 'SessionStart', source: 'resume' };
    const decoded = wasmhooks.v1.HookRequest.decode(encodeHookInput(input, 0));
    expect(decoded.event).toBe(wasmhooks.v1.HookEvent.HOOK_EVENT_SESSION_START);
    expect(decoded.session?.reason).toBe('resume');
  });

  it('a host remembers a bounded number of sessions, forgetting the oldest first', () => {
    const opened = new OpenedSessions(2);
    expect([opened.open('a'), opened.open('b'), opened.open('a')]).toEqual([true, true, false]);
    expect(opened.open('c')).toBe(true); // forgets a
    expect([opened.open('b'), opened.open('a')]).toEqual([false, true]);
  });
});
