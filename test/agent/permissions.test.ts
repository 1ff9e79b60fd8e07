// Permission modes, rules, the app callback and the PermissionRequest hook; a missing answer is never an approval.
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../host/models/scripted.js';
import type { CanUseTool, PermissionMode } from '../../host/permissions/types.js';
import type { HostOptions } from '../../host/host-options.js';
import { collect, host, ofType, recorder } from './helpers.js';

const write = { name: 'Write', input: { file_path: 'x', content: 'y' } };
const read = { name: 'Read', input: { file_path: 'x' } };

async function run(calls: Array<{ name: string; input: Record<string, unknown> }>, options: HostOptions) {
  const model = scriptedModel([{ toolCalls: calls }, { text: '.' }]);
  const events = await collect(host({ model, ...options }).session(), 'x');
  return {
    events,
    ran: ofType(events, 'tool.output').map((e) => e.name),
    denied: ofType(events, 'tool.denied').map((e) => `${e.name}:${e.source}`),
    resolved: ofType(events, 'permission.resolved').map((e) => `${e.name}:${e.behavior}:${e.source}`),
  };
}

describe('modes and rules', () => {
  const cases: Array<[PermissionMode, string[], string[]]> = [
    ['default', [], ['Read:no-callback', 'Write:no-callback']],
    ['acceptEdits', ['Write'], ['Read:no-callback']],
    ['bypassPermissions', ['Read', 'Write'], []],
    ['dontAsk', [], ['Read:mode', 'Write:mode']],
  ];
  for (const [mode, ran, denied] of cases) {
    it(`${mode}`, async () => {
      const r = await run([read, write], { permissionMode: mode });
      expect(r.ran).toEqual(ran);
      expect(r.denied).toEqual(denied);
    });
  }

  it('allow rules let a tool through; deny rules win over bypass and over a hook allow', async () => {
    expect((await run([read, write], { allowedTools: ['Read'], permissionMode: 'dontAsk' })).ran).toEqual(['Read']);
    expect((await run([read, write], { disallowedTools: ['Write'], permissionMode: 'bypassPermissions' })).denied).toEqual(['Write:rule']);
    const hookAllow = await run([write], { disallowedTools: [/Wr.*/], hooks: { PreToolUse: [{ hooks: [async () => ({ decision: 'allow' })] }] } });
    expect(hookAllow.denied).toEqual(['Write:rule']);
  });

  it('a PreToolUse allow skips the question', async () => {
    const r = await run([write], { hooks: { PreToolUse: [{ hooks: [async () => ({ decision: 'allow' })] }] } });
    expect(r.ran).toEqual(['Write']);
    expect(r.resolved).toEqual(['Write:allow:hook']);
    expect(ofType(r.events, 'permission.request')).toHaveLength(0);
  });
});

describe('the callback', () => {
  it('allow once, deny with message, cancelled', async () => {
    const answers: Record<string, Awaited<ReturnType<CanUseTool>>> = {
      Read: { behavior: 'allow' },
      Write: { behavior: 'deny', message: 'not that file' },
    };
    const r = await run([read, write], { canUseTool: async (name) => answers[name] as Awaited<ReturnType<CanUseTool>> });
    expect(r.ran).toEqual(['Read']);
    expect(ofType(r.events, 'tool.denied')[0]).toMatchObject({ reason: 'not that file', source: 'callback' });
    const c = await run([read], { canUseTool: async () => ({ behavior: 'cancelled' }) });
    expect(c.denied).toEqual(['Read:callback']);
  });

  it('allow_always holds for the rest of the session', async () => {
    let asked = 0;
    const r = await run([read, read, read], { canUseTool: async () => (asked++, { behavior: 'allow_always' }) });
    expect(asked).toBe(1);
    expect(r.ran).toEqual(['Read', 'Read', 'Read']);
    expect(r.resolved).toEqual(['Read:allow:callback', 'Read:allow:session', 'Read:allow:session']);
    expect(ofType(r.events, 'permission.resolved')[0]?.always).toBe(true);
  });

  it('updatedInput from the callback is what runs', async () => {
    const r = await run([write], { canUseTool: async (_n, input) => ({ behavior: 'allow', updatedInput: { ...input, content: 'safer' } }) });
    expect(ofType(r.events, 'tool.output')[0]?.content).toBe('wrote 5 bytes to /proj/x');
  });

  it('a throwing callback, a timeout or garbage is never an approval', async () => {
    const threw = await run([read], { canUseTool: async () => { throw new Error('ui crashed'); } });
    expect(ofType(threw.events, 'tool.denied')[0]).toMatchObject({ source: 'callback-failed', reason: expect.stringMatching(/ui crashed/) });
    let sawAbort = false;
    const slow = await run([read], {
      permissionTimeoutMs: 20,
      canUseTool: (_n, _i, { signal }) => new Promise(() => signal.addEventListener('abort', () => (sawAbort = true))),
    });
    expect(ofType(slow.events, 'tool.denied')[0]).toMatchObject({ source: 'callback-failed', reason: expect.stringMatching(/within 20 ms/) });
    expect(sawAbort).toBe(true);
    const garbage = await run([read], { canUseTool: async () => ({ behavior: 'yes please' }) as never });
    expect(garbage.denied).toEqual(['Read:callback-failed']);
  });
});

describe('the PermissionRequest hook', () => {
  it('fires only on fall-through, and its answer replaces the callback', async () => {
    const hook = recorder({ decision: 'allow' });
    let asked = 0;
    const r = await run([read, write], {
      allowedTools: ['Read'],
      canUseTool: async () => (asked++, { behavior: 'deny', message: 'no' }),
      hooks: { PermissionRequest: [{ hooks: [hook.fn] }] },
    });
    expect(hook.calls.map((c) => 'tool_name' in c && c.tool_name)).toEqual(['Write']);
    expect(asked).toBe(0);
    expect(r.ran).toEqual(['Read', 'Write']);
    expect(r.resolved).toEqual(['Read:allow:rule', 'Write:allow:permission-hook']);
  });

  it('deny from the hook; continue goes on to the callback; Notification fires before asking', async () => {
    const deny = await run([write], { hooks: { PermissionRequest: [{ hooks: [async () => ({ decision: 'deny', reason: 'policy' })] }] } });
    expect(ofType(deny.events, 'tool.denied')[0]).toMatchObject({ source: 'permission-hook', reason: 'policy' });
    const note = recorder();
    const cont = await run([write], { canUseTool: async () => ({ behavior: 'allow' }), hooks: { PermissionRequest: [{ hooks: [async () => ({})] }], Notification: [{ hooks: [note.fn] }] } });
    expect(cont.ran).toEqual(['Write']);
    expect(note.calls[0]).toMatchObject({ hook_event_name: 'Notification', message: 'Write needs permission' });
  });

  it('a failing PermissionRequest hook denies (fail-closed)', async () => {
    const r = await run([write], { canUseTool: async () => ({ behavior: 'allow' }), hooks: { PermissionRequest: [{ timeoutMs: 10, hooks: [() => new Promise(() => {})] }] } });
    expect(ofType(r.events, 'tool.denied')[0]).toMatchObject({ source: 'permission-hook', reason: expect.stringMatching(/TIMEOUT/) });
  });
});
