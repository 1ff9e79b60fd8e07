// An approval shows exactly the input that will run (red21's note, approval-input.ts). On the old code the
// PermissionRequest rewrites failed: `permission.request` was emitted before the PermissionRequest hooks and
// showed `ls` while the app was asked about, and then ran, `rm -rf ~` (JS, shell and WASM alike); and an
// app or a subscriber that edited the input it was handed in place ran the edit past the PreToolUse guards.
// The PreToolUse rows passed before too: they hold that part of the note stale, so it stays so.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createHost, loadPlugin, scriptedModel, shellHooks, tool } from '../../host/index.js';
import { eventGrammarViolations } from '../../host/events/grammar.js';
import { createServer } from '../../host/server/app.js';
import { KINDS, approverEdits, overHttp, permissionRequestRewrite, permissionRequestRewriteAndAllow, preToolUseRewrite, runCall, type ApprovalApi } from './approval-input.js';

const api: ApprovalApi = { createHost, loadPlugin, scriptedModel, shellHooks, tool, z };

describe('every approval surface shows the input that runs', () => {
  it.each(KINDS)('a PreToolUse rewrite (%s): the event, the PermissionRequest hooks and the app see the rewritten input', async (kind) => {
    expect(await preToolUseRewrite(api, kind)).toEqual([]);
  });

  it.each(KINDS)('a PermissionRequest rewrite (%s): permission.request shows what the app is asked about, which runs', async (kind) => {
    expect(await permissionRequestRewrite(api, kind)).toEqual([]);
  });

  it.each(KINDS)('a PermissionRequest rewrite that allows (%s): no question announced about the old input', async (kind) => {
    expect(await permissionRequestRewriteAndAllow(api, kind)).toEqual([]);
  });

  it('over HTTP: the can_use_tool control request and the streamed permission.request show the rewritten input that runs', async () => {
    expect(await overHttp(api, createServer)).toEqual([]);
  });

  it('an approver that edits what it was handed in place changes nothing; its updatedInput is re-checked', async () => {
    expect(await approverEdits(api)).toEqual([]);
  });
});

describe('the stream of a question', () => {
  it('PermissionRequest hooks run before permission.request; the event carries the reason the app gets', async () => {
    const allow = async () => ({ decision: 'allow' as const });
    const rewrite = async () => ({ updatedInput: { command: 'rm -rf ~' } });
    const seen = await runCall(api, { hooks: { PermissionRequest: [{ name: 'a', hooks: [allow] }, { name: 'b', hooks: [rewrite] }] } });
    expect(eventGrammarViolations(seen.events)).toEqual([]);
    const order = seen.events.flatMap((e) => (e.type === 'permission.request' || e.type === 'permission.resolved' ? [e.type] : e.type === 'hook.start' && e.event !== 'Stop' ? [e.event] : []));
    expect(order).toEqual(['PermissionRequest', 'PermissionRequest', 'PermissionRequest', 'permission.request', 'permission.resolved']);
    const request = seen.events.find((e) => e.type === 'permission.request');
    expect(request).toMatchObject({ input: { command: 'rm -rf ~' }, reason: 'mode; hook "a#0" allowed the call before hook "b#0" rewrote its input' });
  });

  it('a question a PermissionRequest hook answers is never announced; the grammar refuses a PermissionRequest hook after permission.request', async () => {
    const seen = await runCall(api, { hooks: { PermissionRequest: [{ hooks: [async () => ({ decision: 'deny' as const, reason: 'no' })] }] } });
    expect(seen.events.some((e) => e.type === 'permission.request')).toBe(false);
    expect(eventGrammarViolations(seen.events)).toEqual([]);
    const asked = await runCall(api, {});
    const at = asked.events.findIndex((e) => e.type === 'permission.request');
    const hook = { type: 'hook.start', hookId: 'x', hookName: 'x', kind: 'js', event: 'PermissionRequest', toolUseId: 'b1' } as const;
    const late = [...asked.events.slice(0, at + 1), { ...hook, seq: 0, sessionId: '', time: 0 }];
    expect(eventGrammarViolations(late as typeof asked.events).map((v) => v.rule)).toContain('hook');
  });
});
