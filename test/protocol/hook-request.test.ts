/**
 * The direct encoder (host/protocol/hook-request.ts) against the reference
 * path it replaced on the hot path: protobufjs encoding `toWireRequest`'s
 * message. Byte for byte, for every event, with empty, multi-byte and long
 * fields (lengths that need 2- and 3-byte varints).
 */
import { describe, expect, it } from 'vitest';
import { HOOK_EVENT_NAMES, type HookCommon, type HookInput } from '../../host/hooks/types.js';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';
import { encodeHookRequest } from '../../host/protocol/pb-codec.js';
import { encodeHookInput } from '../../host/protocol/hook-request.js';
import { toWireRequest } from '../../host/protocol/wire.js';

const long = 'x'.repeat(200);
const huge = 'é'.repeat(40_000); // 80 KB of UTF-8: a 3-byte length, grows the shared buffer past what it keeps

function inputs(common: HookCommon): HookInput[] {
  const tool = { tool_name: 'Bash', tool_input: { command: 'ls -la ✓', n: 1 }, tool_use_id: 'toolu_1' };
  return [
    { ...common, hook_event_name: 'SessionStart', source: 'startup' },
    { ...common, hook_event_name: 'SessionEnd', reason: 'other' },
    { ...common, hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' },
    { ...common, hook_event_name: 'UserPromptSubmit', prompt: long },
    { ...common, hook_event_name: 'IterationStart' },
    { ...common, hook_event_name: 'PreToolBatch', tool_calls: [{ tool_use_id: 'a', tool_name: 'Read', tool_input: {} }] },
    {
      ...common,
      hook_event_name: 'PostToolBatch',
      tool_calls: [
        { tool_use_id: 'a', tool_name: 'Read', tool_input: { p: long }, tool_response: 'ok', is_error: false },
        { tool_use_id: 'b', tool_name: 'Bash', tool_input: {}, tool_response: { x: 1 }, is_error: true },
      ],
    },
    { ...common, ...tool, hook_event_name: 'PreToolUse' },
    { ...common, ...tool, hook_event_name: 'PreToolUse', recheck: true },
    { ...common, ...tool, hook_event_name: 'PermissionRequest', tool_input: { big: huge }, permission_suggestions: [] },
    { ...common, ...tool, hook_event_name: 'PermissionRequest', permission_suggestions: [{ type: 'addRules', rules: [{ toolName: 'Bash' }], behavior: 'allow', destination: 'session' }] },
    { ...common, ...tool, hook_event_name: 'PostToolUse', tool_response: 'done', duration_ms: 12.6 },
    { ...common, ...tool, hook_event_name: 'PostToolUse', tool_response: undefined, duration_ms: 0 },
    { ...common, ...tool, hook_event_name: 'PostToolUseFailure', error: 'boom', tool_response: undefined },
    { ...common, ...tool, hook_event_name: 'PostToolUseFailure', error: 'boom', tool_response: 'partial', duration_ms: 5e12 },
    { ...common, hook_event_name: 'Stop', stop_hook_active: true, last_assistant_message: 'bye' },
    { ...common, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: '' },
    { ...common, hook_event_name: 'StopFailure', stop_hook_active: false, last_assistant_message: 'x', error: 'rate limit' },
    { ...common, hook_event_name: 'SubagentStart', agent_type: 'explore', prompt: 'look' },
    { ...common, hook_event_name: 'SubagentStop', agent_id: 'sub-1', agent_type: 'explore', prompt: 'look', result: '✓ found', stop_hook_active: false, last_assistant_message: '✓ found' },
    { ...common, hook_event_name: 'SubagentStop', agent_type: 'explore', prompt: 'look', result: 'again', stop_hook_active: true, last_assistant_message: '' },
    { ...common, hook_event_name: 'SubagentStop', agent_type: 'explore', prompt: 'look', result: 'ran out', stop_hook_active: false, last_assistant_message: long + huge },
    // A recording from before last_assistant_message (plugin test --events): absent on the wire.
    { ...common, hook_event_name: 'SubagentStop', agent_type: 'explore', prompt: 'look', result: 'old', stop_hook_active: false },
    { ...common, hook_event_name: 'PreCompact', trigger: 'auto', tokens_before: 123_456 },
    { ...common, hook_event_name: 'PostCompact', trigger: 'manual', tokens_before: 2 ** 33 + 5, tokens_after: 0 },
    { ...common, hook_event_name: 'Notification', message: 'hi', title: 'Permission needed', level: 'info', notification_type: 'permission_prompt' },
    // A recording from before title: absent on the wire.
    { ...common, hook_event_name: 'Notification', message: 'hi', level: 'info', notification_type: 'permission_prompt' },
    { ...common, hook_event_name: 'Error', code: 'MODEL', message: long + huge },
  ] as HookInput[];
}

const commons: HookCommon[] = [
  { session_id: 'sess-1', cwd: '/tmp', turn: 1, iteration: 2, permission_mode: 'default' },
  { session_id: '', cwd: '', turn: 0, iteration: 0, permission_mode: 'default', agent_id: 'agent-7' },
  { session_id: long, cwd: `/home/ü/${long}`, turn: 300, iteration: 70_000, permission_mode: 'bypassPermissions' },
  { session_id: 's', cwd: '/w', turn: 2, iteration: 1, permission_mode: 'default', transcript_path: '/w/.wasmhooks/sessions/s.jsonl' },
];

describe('encodeHookInput', () => {
  it('covers every hook event', () => {
    const seen = new Set(inputs(commons[0]!).map((i) => i.hook_event_name));
    expect([...seen].sort()).toEqual([...HOOK_EVENT_NAMES].sort());
  });

  for (const [c, common] of commons.entries()) {
    it(`writes the bytes protobufjs writes for toWireRequest (context ${c})`, () => {
      for (const input of inputs(common)) {
        for (const binding of [0, 3, 200]) {
          const ours = encodeHookInput(input, binding);
          const reference = encodeHookRequest(toWireRequest(input, binding));
          expect(Buffer.from(ours).toString('hex'), `${input.hook_event_name} binding ${binding}`).toBe(Buffer.from(reference).toString('hex'));
        }
      }
    });
  }

  it('encodes JSON that is not plain data as JSON.stringify does, and throws where it throws', () => {
    const common = commons[0]!;
    const dated = { ...common, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: 't', tool_input: { when: new Date(0), n: 1 } } as HookInput;
    const response = { ...dated, hook_event_name: 'PostToolUse', tool_response: () => 1 } as unknown as HookInput;
    for (const input of [dated, response]) {
      expect(Buffer.from(encodeHookInput(input, 0)).toString('hex')).toBe(Buffer.from(encodeHookRequest(toWireRequest(input, 0))).toString('hex'));
    }
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(() => encodeHookInput({ ...dated, tool_input: cycle } as HookInput, 0)).toThrow(TypeError);
    expect(() => encodeHookInput({ ...dated, tool_input: { n: 1n } } as HookInput, 0)).toThrow(TypeError);
  });

  it('carries Claude Code\'s permission_suggestions, SubagentStop stop_hook_active and notification_type to WASM hooks', () => {
    const common = commons[0]!;
    const decode = (input: Record<string, unknown>) => wasmhooks.v1.HookRequest.decode(encodeHookInput({ ...common, ...input } as HookInput, 0));
    const suggestions = [{ type: 'addRules', rules: [{ toolName: 'Bash' }], behavior: 'allow', destination: 'session' }];
    const asked = decode({ hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: {}, tool_use_id: 't', permission_suggestions: suggestions });
    expect(JSON.parse(asked.toolUse?.permissionSuggestionsJson ?? '')).toEqual(suggestions);
    // None (or a recording from before the field): absent, not "[]".
    expect(decode({ hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: {}, tool_use_id: 't' }).toolUse?.permissionSuggestionsJson).toBe('');
    expect(decode({ hook_event_name: 'SubagentStop', agent_type: 'a', prompt: 'p', result: 'r', stop_hook_active: true }).subagent?.stopHookActive).toBe(true);
    expect(decode({ hook_event_name: 'Notification', message: 'm', level: 'info', notification_type: 'permission_prompt' }).notification?.notificationType).toBe('permission_prompt');
  });

  it("carries Claude Code's SubagentStop last_assistant_message (field 6), Notification title (field 4) and SessionEnd reason to WASM hooks", () => {
    const common = commons[0]!;
    const decode = (input: Record<string, unknown>) => wasmhooks.v1.HookRequest.decode(encodeHookInput({ ...common, ...input } as HookInput, 0));
    const stop = decode({ hook_event_name: 'SubagentStop', agent_type: 'a', prompt: 'p', result: 'sub-agent "a" did not finish', stop_hook_active: false, last_assistant_message: 'Still looking.' });
    expect(stop.subagent?.lastAssistantMessage).toBe('Still looking.');
    expect(stop.subagent?.result).toBe('sub-agent "a" did not finish');
    const notice = decode({ hook_event_name: 'Notification', message: 'Write needs permission', title: 'Permission needed', level: 'info', notification_type: 'permission_prompt' });
    expect(notice.notification?.title).toBe('Permission needed');
    expect(decode({ hook_event_name: 'SessionEnd', reason: 'other' }).session?.reason).toBe('other');
  });

  it('marks a re-check in ToolUsePayload.recheck (field 3), on PreToolUse only', () => {
    const common = commons[0]!;
    const tool = { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1' };
    const first = { ...common, ...tool, hook_event_name: 'PreToolUse' } as HookInput;
    const again = { ...first, recheck: true } as HookInput;
    const decoded = (input: HookInput) => wasmhooks.v1.HookRequest.decode(encodeHookInput(input, 0)).toolUse;
    expect(decoded(again)?.recheck).toBe(true);
    expect(decoded(first)?.recheck).toBe(false);
    // The mark adds exactly its two bytes (tag 0x18, value 1) at the end of the payload.
    const [a, b] = [encodeHookInput(first, 0), encodeHookInput(again, 0)];
    expect(b.length).toBe(a.length + 2);
    expect(Buffer.from(b.subarray(-2)).toString('hex')).toBe('1801');
    // From untyped JS: a stray mark on a PermissionRequest is not sent, nor anything but `true` on PreToolUse.
    const stray = { ...first, hook_event_name: 'PermissionRequest', recheck: true } as unknown as HookInput;
    const truthy = { ...first, recheck: 'yes' } as unknown as HookInput;
    for (const input of [stray, truthy]) {
      expect(decoded(input)?.recheck).toBe(false);
      expect(Buffer.from(encodeHookInput(input, 0)).toString('hex')).toBe(Buffer.from(encodeHookRequest(toWireRequest(input, 0))).toString('hex'));
    }
  });

  it('returns a copy the next call does not overwrite', () => {
    const [first, second] = inputs(commons[0]!).slice(6, 8);
    const a = encodeHookInput(first!, 0);
    const before = Buffer.from(a).toString('hex');
    encodeHookInput(second!, 1);
    expect(Buffer.from(a).toString('hex')).toBe(before);
  });
});
