// conf7: Claude Code's hook contract for JS and shell hooks (conf7-claude-hooks.ts) against the sources; the same
// run on Node, Deno and Bun against dist/ in test/xrt/conf7.xrt.ts. Each failed on the old code: a
// PermissionRequest stop was a deny (the batch went on, the model was called again), `interrupt` and
// `updatedPermissions` were BAD_OUTPUT (a fail-closed deny), `permission_suggestions`, SubagentStop's
// `stop_hook_active` and Notification's `notification_type` were absent, matchers on non-tool events were
// ignored, SessionStart said `reason`, and `updatedToolOutput`/`updatedMCPToolOutput` were BAD_OUTPUT.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createHost, readHookOutput, scriptedModel, shellHooks, tool } from '../../host/index.js';
import { collect, endResult, host, ofType } from './helpers.js';
import { nonToolMatchers, permissionStop, rewrittenToolOutput, subagentStopActive, updatedPermissions } from './conf7-claude-hooks.js';

const api = { createHost, scriptedModel, shellHooks, tool, z };

describe("conf7: Claude Code's hook contract", () => {
  it('PermissionRequest continue:false (JS) and a deny with interrupt (shell) end the turn; the batch is stopped', async () => {
    expect(await permissionStop(api)).toEqual([]);
  });

  it('updatedPermissions: a whole-tool addRules allow is a session rule; other shapes are read, not applied; a bad shape is BAD_OUTPUT; permission_suggestions offered', async () => {
    expect(await updatedPermissions(api)).toEqual([]);
  });

  it('SubagentStop stop_hook_active is true once a block sent the sub-agent back (JS and shell)', async () => {
    expect(await subagentStopActive(api)).toEqual([]);
  });

  it('matchers on non-tool events: SessionStart source, SessionEnd reason, Notification notification_type, Subagent* agent_type, *Compact trigger', async () => {
    expect(await nonToolMatchers(api)).toEqual([]);
  });

  it('PostToolUse updatedToolOutput and updatedMCPToolOutput rewrite what the model and tool.output get', async () => {
    expect(await rewrittenToolOutput(api)).toEqual([]);
  });
});

describe('conf7: the event stream of a PermissionRequest stop', () => {
  it('keeps the event grammar: permission.resolved deny, tool.denied permission-hook for the asked call and stopped for the rest, agent.end with stoppedBy', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'Write', id: 'w1', input: { file_path: 'a', content: 'x' } }, { name: 'Read', id: 'r1', input: { file_path: 'b' } }] }, { text: 'not reached' }]);
    const stop = async () => ({ hookSpecificOutput: { hookEventName: 'PermissionRequest' as const, decision: { behavior: 'deny' as const, message: 'halt', interrupt: true } } });
    const events = await collect(host({ model, hooks: { PermissionRequest: [{ name: 'halter', hooks: [stop] }] } }).session(), 'go');
    expect(ofType(events, 'permission.resolved')).toMatchObject([{ toolUseId: 'w1', behavior: 'deny', source: 'permission-hook', message: 'halt' }]);
    expect(ofType(events, 'tool.denied')).toMatchObject([
      { toolUseId: 'w1', source: 'permission-hook', reason: 'halt', hookName: 'halter#0' },
      { toolUseId: 'r1', source: 'stopped', hookName: 'halter#0' },
    ]);
    expect(endResult(events)).toMatchObject({ subtype: 'success', stoppedBy: { event: 'PermissionRequest', hookName: 'halter#0', decision: 'stop', reason: 'halt' } });
  });
});

describe('conf7: reading the new answer fields', () => {
  const answer = (decision: unknown) => ({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } });

  it('a deny with interrupt is stop; an allow carries its updatedPermissions', () => {
    expect(readHookOutput('PermissionRequest', answer({ behavior: 'deny', message: 'halt', interrupt: true }))).toEqual({ ok: true, output: { decision: 'stop', reason: 'halt' } });
    expect(readHookOutput('PermissionRequest', answer({ behavior: 'deny', interrupt: false }))).toEqual({ ok: true, output: { decision: 'deny' } });
    const updates = [{ type: 'setMode', mode: 'plan', destination: 'session' }];
    expect(readHookOutput('PermissionRequest', answer({ behavior: 'allow', updatedPermissions: updates }))).toEqual({ ok: true, output: { decision: 'allow', updatedPermissions: updates } });
  });

  it.each([
    ['an unknown update type', [{ type: 'grantAll', destination: 'session' }]],
    ['a rule without toolName', [{ type: 'addRules', rules: [{}], behavior: 'allow', destination: 'session' }]],
    ['an unknown destination', [{ type: 'addRules', rules: [{ toolName: 'Bash' }], behavior: 'allow', destination: 'everywhere' }]],
    ['an unknown key', [{ type: 'setMode', mode: 'default', destination: 'session', also: 1 }]],
  ])('refuses updatedPermissions with %s, naming the field', (_, updates) => {
    const read = readHookOutput('PermissionRequest', answer({ behavior: 'allow', updatedPermissions: updates }));
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.message).toMatch(/updatedPermissions/);
  });

  it('refuses two output rewrites, and updatedMCPToolOutput where the tool is not MCP', () => {
    const post = (specific: object, top: object = {}) => ({ ...top, hookSpecificOutput: { hookEventName: 'PostToolUse', ...specific } });
    expect(readHookOutput('PostToolUse', post({ updatedToolOutput: 'a' }, { updatedOutput: 'b' }), 'Read')).toMatchObject({ ok: false, message: expect.stringMatching(/rewritten twice/) });
    expect(readHookOutput('PostToolUse', post({ updatedToolOutput: 'a', updatedMCPToolOutput: 'b' }), 'mcp__s__t')).toMatchObject({ ok: false, message: expect.stringMatching(/give one of/) });
    expect(readHookOutput('PostToolUse', post({ updatedMCPToolOutput: 'b' }), 'Read')).toMatchObject({ ok: false, message: expect.stringMatching(/not Read's/) });
    expect(readHookOutput('PostToolUse', post({ updatedMCPToolOutput: [{ type: 'text', text: 'x' }] }), 'mcp__s__t')).toEqual({ ok: true, output: { updatedOutput: 'x' } });
    expect(readHookOutput('PostToolUse', post({ updatedMCPToolOutput: 42 }), 'mcp__s__t').ok).toBe(false);
  });

  it('continue:false beside an allow with updatedPermissions stops, and carries no updates', () => {
    const updates = [{ type: 'addRules', rules: [{ toolName: 'Bash' }], behavior: 'allow', destination: 'session' }];
    expect(readHookOutput('PermissionRequest', { continue: false, ...answer({ behavior: 'allow', updatedPermissions: updates }) })).toEqual({ ok: true, output: { decision: 'stop' } });
  });
});
