// What a hook answers, in our spelling or the Claude Agent SDK's: one reader
// (host/hooks/output.ts) for JS and shell hooks; an answer it cannot read is a
// BAD_OUTPUT failure, so a guard fails closed instead of allowing.
import { describe, expect, it } from 'vitest';
import { readHookOutput } from '../../host/hooks/output.js';
import type { HookCallbackOutput, HookEventName, HookOutput } from '../../host/hooks/types.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { fakeBash } from '../fixtures/tools.js';
import { collect, endResult, host, ofType } from '../agent/helpers.js';

const pre = (o: Omit<NonNullable<HookCallbackOutput['hookSpecificOutput']>, 'hookEventName'>) => ({ hookSpecificOutput: { ...o, hookEventName: 'PreToolUse' as const } });

describe('readHookOutput maps both spellings onto one decision', () => {
  it.each<[string, HookEventName, unknown, HookOutput]>([
    ['ours', 'PreToolUse', { decision: 'deny', reason: 'no' }, { decision: 'deny', reason: 'no' }],
    ['empty', 'PreToolUse', {}, {}],
    ['continue is no decision', 'PreToolUse', { decision: 'continue' }, {}],
    ['permissionDecision deny', 'PreToolUse', pre({ permissionDecision: 'deny', permissionDecisionReason: 'rm' }), { decision: 'deny', reason: 'rm' }],
    ['permissionDecision allow', 'PreToolUse', pre({ permissionDecision: 'allow' }), { decision: 'allow' }],
    ['permissionDecision ask', 'PreToolUse', pre({ permissionDecision: 'ask', permissionDecisionReason: 'sure?' }), { decision: 'ask', reason: 'sure?' }],
    ['updatedInput and additionalContext', 'PreToolUse', pre({ updatedInput: { command: 'ls' }, additionalContext: 'ctx' }), { updatedInput: { command: 'ls' }, additionalContext: 'ctx' }],
    ['contexts from both places are joined', 'PostToolUse', { additionalContext: 'a', hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'b' } }, { additionalContext: 'a\nb' }],
    ['the more restrictive of decision and permissionDecision', 'PreToolUse', { decision: 'allow', reason: 'ok', ...pre({ permissionDecision: 'deny', permissionDecisionReason: 'no' }) }, { decision: 'deny', reason: 'no' }],
    ['... either way round', 'PreToolUse', { decision: 'deny', reason: 'no', ...pre({ permissionDecision: 'allow' }) }, { decision: 'deny', reason: 'no' }],
    ['block is deny on a guard', 'PreToolUse', { decision: 'block', reason: 'r' }, { decision: 'deny', reason: 'r' }],
    ['block is block on Stop', 'Stop', { decision: 'block', reason: 'tests first' }, { decision: 'block', reason: 'tests first' }],
    // conf4: Claude Code's block where the tool already ran is feedback: its reason reaches the model.
    ['block after a call is its reason as context (PostToolUse)', 'PostToolUse', { decision: 'block', reason: 'lint: a.ts:1' }, { reason: 'lint: a.ts:1', additionalContext: 'lint: a.ts:1' }],
    ['... joined before the hook\'s own context (PostToolUseFailure)', 'PostToolUseFailure', { decision: 'block', reason: 'r', additionalContext: 'c' }, { reason: 'r', additionalContext: 'r\nc' }],
    ['... and continue:false still stops', 'PostToolUse', { continue: false, decision: 'block', stopReason: 'halt' }, { decision: 'stop', reason: 'halt' }],
    ['approve is allow', 'PermissionRequest', { decision: 'approve' }, { decision: 'allow' }],
    ['continue:false stops', 'PreToolUse', { continue: false, stopReason: 'halt' }, { decision: 'stop', reason: 'halt' }],
    ['continue:false is deny where stop is illegal', 'SubagentStart', { continue: false, stopReason: 'halt' }, { decision: 'deny', reason: 'halt' }],
    ['continue:false stops a PermissionRequest (conf7: Claude Code ends the turn)', 'PermissionRequest', { continue: false, stopReason: 'halt' }, { decision: 'stop', reason: 'halt' }],
    ['continue:false lets a Stop through', 'Stop', { continue: false, decision: 'block', stopReason: 'done' }, { reason: 'done' }],
    ['continue:false wins over allow', 'PreToolUse', { continue: false, ...pre({ permissionDecision: 'allow' }) }, { decision: 'stop' }],
    ['PermissionRequest allow with updatedInput', 'PermissionRequest', { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: { a: 1 } } } }, { decision: 'allow', updatedInput: { a: 1 } }],
    ['PermissionRequest deny with message', 'PermissionRequest', { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'no' } } }, { decision: 'deny', reason: 'no' }],
    ['systemMessage, suppressOutput, continue:true', 'PostToolUse', { systemMessage: 'hi', suppressOutput: true, continue: true }, { systemMessage: 'hi' }],
  ])('%s', (_, event, raw, expected) => {
    expect(readHookOutput(event, raw)).toEqual({ ok: true, output: expected });
  });

  it.each<[string, HookEventName, unknown, RegExp]>([
    ['an unknown top-level key', 'PreToolUse', { decision: 'deny', permission: 'no' }, /permission/],
    ['an unknown key in hookSpecificOutput', 'PreToolUse', pre({ permissionDecision: 'deny', decisionReason: 'x' } as never), /decisionReason/],
    ['a hookEventName for another event', 'PostToolUse', pre({ permissionDecision: 'deny' }), /hookEventName is "PreToolUse", but this hook runs on PostToolUse/],
    ['no hookEventName', 'PreToolUse', { hookSpecificOutput: { permissionDecision: 'deny' } }, /hookEventName/],
    ['a decision that is not one', 'PreToolUse', { decision: 'nope' }, /decision/],
    ['a permissionDecision that is not one', 'PreToolUse', pre({ permissionDecision: 'block' as never }), /permissionDecision/],
    ['updatedInput twice', 'PreToolUse', { updatedInput: { a: 1 }, ...pre({ updatedInput: { a: 2 } }) }, /updatedInput is given twice/],
    ['not an object', 'PreToolUse', 'deny', /expected object/],
    ['a permission answer outside PermissionRequest', 'PreToolUse', pre({ decision: { behavior: 'allow' } }), /PermissionRequest only/],
    ['a permission answer whose interrupt is not a boolean', 'PermissionRequest', { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', interrupt: 'yes' } } }, /interrupt/],
  ])('refuses %s', (_, event, raw, message) => {
    const read = readHookOutput(event, raw);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.message).toMatch(message);
  });
});

describe('a JS guard answering in the Claude shape', () => {
  const run = async (answer: HookCallbackOutput, failurePolicy?: 'fail-open') => {
    const ran: string[] = [];
    const model = scriptedModel([{ toolCalls: [{ name: 'Bash', input: { command: 'rm -rf /' } }] }, { text: 'done' }]);
    const h = host({
      model,
      tools: [fakeBash('ok', ran)],
      permissionMode: 'bypassPermissions',
      hooks: { PreToolUse: [{ matcher: 'Bash', name: 'guard', ...(failurePolicy ? { failurePolicy } : {}), hooks: [async () => answer] }] },
    });
    const events = await collect(h.session(), 'x');
    return { ran, events, end: ofType(events, 'hook.end')[0]! };
  };

  it('denies: the tool does not run and hook.end says deny with the reason', async () => {
    const { ran, events, end } = await run(pre({ permissionDecision: 'deny', permissionDecisionReason: 'no rm' }));
    expect(ran).toEqual([]);
    expect(end).toMatchObject({ decision: 'deny', reason: 'no rm' });
    expect(ofType(events, 'tool.denied')).toHaveLength(1);
    expect(endResult(events).subtype).toBe('success');
  });

  it('an answer with an unknown key is BAD_OUTPUT and the guard fails closed', async () => {
    const { ran, end } = await run({ permissionDecision: 'allow' } as HookCallbackOutput);
    expect(ran).toEqual([]);
    expect(end).toMatchObject({ decision: 'deny', failure: { code: 'BAD_OUTPUT' }, failurePolicy: 'fail-closed' });
    expect(end.failure?.message).toMatch(/hook returned an invalid output: .*permissionDecision/s);
  });

  it('a hookSpecificOutput for another event is BAD_OUTPUT too (and a fail-open hook then continues)', async () => {
    const { ran, end } = await run({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'x' } }, 'fail-open');
    expect(ran).toEqual(['rm -rf /']);
    expect(end).toMatchObject({ decision: 'continue', failure: { code: 'BAD_OUTPUT' }, failurePolicy: 'fail-open' });
  });

  it('rewrites and adds context', async () => {
    const { ran, end } = await run(pre({ permissionDecision: 'allow', updatedInput: { command: 'ls' }, additionalContext: 'rewrote rm' }));
    expect(ran).toEqual(['ls']);
    expect(end).toMatchObject({ decision: 'allow', inputUpdated: true, additionalContext: 'rewrote rm' });
  });
});
