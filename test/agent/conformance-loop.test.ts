// Loop conformance with the Claude Agent SDK's measured traces and the Go
// SDK's loop hooks: parallel read-only tools, Claude-style timeouts, the
// fields hooks and permission questions carry, and where we differ (see the
// Compatibility section of docs/hooks.md).
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../host/models/scripted.js';
import { tool } from '../../host/tools/define.js';
import type { HookInput } from '../../host/hooks/types.js';
import type { PermissionRequestInfo } from '../../host/permissions/types.js';
import { collect, endResult, host, ofType } from './helpers.js';

/** Tools that take `ms` to answer, recording how many run at once. */
function timedTools() {
  let inFlight = 0;
  const peak = { value: 0 };
  const make = (name: string, readOnly: boolean) =>
    tool(
      name,
      `${name} sleeps`,
      z.object({ ms: z.number(), tag: z.string() }),
      async ({ ms, tag }) => {
        inFlight++;
        peak.value = Math.max(peak.value, inFlight);
        await new Promise((r) => setTimeout(r, ms));
        inFlight--;
        return `${name}:${tag}`;
      },
      { readOnly },
    );
  return { peak, tools: [make('Look', true), make('Change', false)] };
}

const calls = (...specs: [string, number, string][]) => ({ toolCalls: specs.map(([name, ms, tag], i) => ({ name, id: `t${i}`, input: { ms, tag } })) });

function trail() {
  const seen: string[] = [];
  const rec = async (i: HookInput) => {
    seen.push(`${i.hook_event_name}${'tool_input' in i ? `[${String(i.tool_input.tag)}]` : ''}`);
    return {};
  };
  return { seen, hooks: { PreToolUse: [{ hooks: [rec] }], PostToolUse: [{ hooks: [rec] }], PostToolBatch: [{ hooks: [rec] }] } };
}

describe('parallel read-only tools', () => {
  it('three read-only calls overlap; hooks, tool.output and results keep the model\'s order', async () => {
    const { peak, tools } = timedTools();
    const { seen, hooks } = trail();
    // The last call finishes first; the order must not change.
    const model = scriptedModel([calls(['Look', 150, 'a'], ['Look', 100, 'b'], ['Look', 10, 'c']), { text: 'done' }]);
    const events = await collect(host({ model, tools, hooks, permissionMode: 'bypassPermissions' }).session(), 'go');
    expect(peak.value).toBe(3);
    expect(seen).toEqual(['PreToolUse[a]', 'PreToolUse[b]', 'PreToolUse[c]', 'PostToolUse[a]', 'PostToolUse[b]', 'PostToolUse[c]', 'PostToolBatch']);
    expect(ofType(events, 'tool.output').map((e) => e.content)).toEqual(['Look:a', 'Look:b', 'Look:c']);
    expect(model.requests[1]?.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['Look:a', 'Look:b', 'Look:c']);
  });

  it('other tools run one at a time; a batch is split into groups around them', async () => {
    const { peak, tools } = timedTools();
    const { seen, hooks } = trail();
    const model = scriptedModel([calls(['Look', 30, 'a'], ['Look', 30, 'b'], ['Change', 30, 'c'], ['Look', 30, 'd']), { text: 'done' }]);
    await collect(host({ model, tools, hooks, permissionMode: 'bypassPermissions' }).session(), 'go');
    expect(peak.value).toBe(2);
    expect(seen).toEqual([
      'PreToolUse[a]', 'PreToolUse[b]', 'PostToolUse[a]', 'PostToolUse[b]',
      'PreToolUse[c]', 'PostToolUse[c]',
      'PreToolUse[d]', 'PostToolUse[d]',
      'PostToolBatch',
    ]);
  });

  it('maxParallelTools bounds the overlap; a denied call in a group does not run', async () => {
    const { peak, tools } = timedTools();
    const model = scriptedModel([calls(['Look', 30, 'a'], ['Look', 30, 'b'], ['Look', 30, 'x'], ['Look', 30, 'd']), { text: 'done' }]);
    const deny = async (i: HookInput) => ('tool_input' in i && i.tool_input.tag === 'x' ? { decision: 'deny' as const, reason: 'not x' } : {});
    const batch: HookInput[] = [];
    const events = await collect(
      host({ model, tools, maxParallelTools: 2, permissionMode: 'bypassPermissions', hooks: { PreToolUse: [{ hooks: [deny] }], PostToolBatch: [{ hooks: [async (i) => (batch.push(i), {})] }] } }).session(),
      'go',
    );
    expect(peak.value).toBe(2);
    expect(ofType(events, 'tool.denied').map((e) => e.toolUseId)).toEqual(['t2']);
    expect(model.requests[1]?.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['Look:a', 'Look:b', 'not x', 'Look:d']);
    // PostToolBatch sees what each call gave the model.
    expect(batch[0]).toMatchObject({
      tool_calls: [
        { tool_use_id: 't0', tool_response: 'Look:a', is_error: false },
        { tool_use_id: 't1', tool_response: 'Look:b', is_error: false },
        { tool_use_id: 't2', tool_response: 'not x', is_error: true },
        { tool_use_id: 't3', tool_response: 'Look:d', is_error: false },
      ],
    });
  });
});

describe('fields hooks and questions carry', () => {
  it('PostToolUse has duration_ms', async () => {
    const { tools } = timedTools();
    const posts: HookInput[] = [];
    const model = scriptedModel([calls(['Change', 40, 'a']), { text: 'done' }]);
    await collect(host({ model, tools, permissionMode: 'bypassPermissions', hooks: { PostToolUse: [{ hooks: [async (i) => (posts.push(i), {})] }] } }).session(), 'go');
    const d = (posts[0] as { duration_ms?: number }).duration_ms ?? -1;
    expect(d).toBeGreaterThanOrEqual(35);
    expect(Number.isInteger(d)).toBe(true);
  });

  it('the permission question carries the working directory, and a sub-agent\'s carries its identity', async () => {
    const asked: PermissionRequestInfo[] = [];
    const canUseTool = async (_n: string, _i: Record<string, unknown>, info: PermissionRequestInfo) => (asked.push(info), { behavior: 'allow' as const });
    const model = scriptedModel([
      { toolCalls: [{ name: 'Read', id: 'top', input: { file_path: 'a' } }] },
      { toolCalls: [{ name: 'agent', id: 'toolu_parent', input: { subagent_type: 'r', prompt: 'read b' } }] },
      { toolCalls: [{ name: 'Read', id: 'inner', input: { file_path: 'b' } }] },
      { text: 'b read' },
      { text: 'done' },
    ]);
    const agents = { r: { description: 'reads', systemPrompt: 'read', tools: ['Read'] } };
    await collect(host({ model, canUseTool, agents, allowedTools: ['agent'] }).session(), 'go');
    expect(asked.map((i) => i.toolUseId)).toEqual(['top', 'inner']);
    expect(asked[0]).toMatchObject({ workingDirectory: '/proj' });
    expect(asked[0]).not.toHaveProperty('agentId');
    expect(asked[1]).toMatchObject({ workingDirectory: '/proj', agentId: 'r@toolu_parent', parentToolUseId: 'toolu_parent' });
  });
});

describe('Claude-style options and documented differences', () => {
  it('message.end is the complete assistant message (Claude\'s MessageDisplay): content and its text', async () => {
    const model = scriptedModel([{ text: 'Hello there, friend', toolCalls: [{ name: 'Read', input: { file_path: 'a' } }] }, { text: 'done' }]);
    const events = await collect(host({ model, permissionMode: 'bypassPermissions' }).session(), 'go');
    const ends = ofType(events, 'message.end');
    expect(ends.map((e) => e.text)).toEqual(['Hello there, friend', 'done']);
    expect(ends[0]?.content.map((p) => p.type)).toEqual(['text', 'tool_call']);
  });

  it('a matcher group\'s timeout is in seconds (Claude style)', async () => {
    const slow = async () => new Promise<Record<string, never>>((r) => setTimeout(() => r({}), 400));
    const model = scriptedModel([{ toolCalls: [{ name: 'Read', input: { file_path: 'a' } }] }, { text: 'done' }]);
    const events = await collect(host({ model, permissionMode: 'bypassPermissions', hooks: { PreToolUse: [{ timeout: 0.05, hooks: [slow] }] } }).session(), 'go');
    const end = ofType(events, 'hook.end')[0];
    expect(end?.failure).toMatchObject({ code: 'TIMEOUT', message: expect.stringContaining('50 ms') });
    expect(end?.decision).toBe('deny'); // a PreToolUse guard fails closed
  });

  it('IterationStart stop ends the turn as success with stoppedBy (not an error, unlike the Go SDK)', async () => {
    const model = scriptedModel([{ text: 'never asked' }]);
    const events = await collect(host({ model, hooks: { IterationStart: [{ hooks: [async () => ({ decision: 'stop', reason: 'budget' })] }] } }).session(), 'go');
    expect(endResult(events)).toMatchObject({ subtype: 'success', stoppedBy: { event: 'IterationStart', reason: 'budget' } });
    expect(model.requests).toHaveLength(0);
  });
});
