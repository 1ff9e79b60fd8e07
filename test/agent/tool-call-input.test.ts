// toolCallInput builds the PreToolUse/PermissionRequest input of a tool call as one literal: it must
// be what hookInput gives for the same fields, keys in the same order (hooks see the input as JSON,
// shell hooks on stdin), with and without the optional common fields.
import { describe, expect, it } from 'vitest';
import { hookInput, toolCallInput } from '../../host/agent/hook-input.js';
import type { HookCommon } from '../../host/hooks/types.js';

const base: HookCommon = { session_id: 'sess', cwd: '/work', turn: 3, iteration: 7, permission_mode: 'default' };
const commons: [string, HookCommon][] = [
  ['no optional fields', base],
  ['an agent id', { ...base, agent_id: 'agent-1' }],
  ['a transcript path', { ...base, transcript_path: '/t.jsonl' }],
  ['both', { ...base, agent_id: 'agent-1', transcript_path: '/t.jsonl' }],
];

describe('toolCallInput', () => {
  for (const [label, common] of commons) {
    for (const event of ['PreToolUse', 'PermissionRequest'] as const) {
      it(`${event}, ${label}: the keys and values hookInput gives, in its order`, () => {
        const toolInput = { command: 'ls', nested: { a: [1, 2] } };
        const built = toolCallInput(common, event, 'Bash', 'toolu_9', toolInput);
        const reference = hookInput(common, { tool_name: 'Bash', tool_use_id: 'toolu_9', hook_event_name: event, tool_input: toolInput });
        expect(Object.keys(built)).toEqual(Object.keys(reference));
        expect(JSON.stringify(built)).toBe(JSON.stringify(reference));
        expect(built.tool_input).toBe(toolInput);
      });
    }
  }
});
