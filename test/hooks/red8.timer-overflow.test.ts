// Red review (red8), class "a limit that wraps to its opposite": setTimeout keeps a 32-bit count of
// milliseconds (Node, Deno and Bun) and fires a longer delay after 1 ms. A hook's timeoutMs meant as
// "practically never" (3e9, Infinity) timed the hook out at once: a fail-open redactor was skipped
// on every call, its output left as it was. Each test fails on the code before the fix.
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../host/hooks/dispatch.js';
import { HookRegistry } from '../../host/hooks/registry.js';
import type { HookInput } from '../../host/hooks/types.js';
import { MAX_TIMER_MS, timerDelay } from '../../host/timer.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { host } from '../agent/helpers.js';

const post: HookInput = { hook_event_name: 'PostToolUse', session_id: 's', cwd: '/', turn: 1, iteration: 1, permission_mode: 'default', tool_name: 'Read', tool_input: {}, tool_use_id: 't', tool_response: 'SECRET', duration_ms: 1 } as HookInput;
const later = <T>(value: T, ms = 30) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('timeouts past setTimeout\'s range', () => {
  it('timerDelay caps, never wraps', () => {
    expect(timerDelay(5)).toBe(5);
    expect(timerDelay(3e9)).toBe(MAX_TIMER_MS);
    expect(timerDelay(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_MS);
  });

  for (const timeoutMs of [3e9, Number.POSITIVE_INFINITY]) {
    it(`a fail-open redactor with timeoutMs ${timeoutMs} runs to its answer`, async () => {
      const registry = new HookRegistry();
      registry.add('PostToolUse', { timeoutMs, failurePolicy: 'fail-open', hooks: [() => later({ updatedOutput: '[redacted]' })] });
      const out = await dispatch({ registry, emit: () => {}, signal: new AbortController().signal }, 'PostToolUse', () => post as never);
      expect(out.updatedOutput).toBe('[redacted]');
    });
  }

  it('permissionTimeoutMs past the range waits for the answer (the old timer denied after 1 ms)', async () => {
    const model = scriptedModel({ rules: [{ when: { lastUser: 'go' }, reply: { toolCalls: [{ name: 'Read', input: { file_path: 'a' } }] }, times: 1 }], turns: [{ text: 'done' }] });
    const h = host({ model, permissionTimeoutMs: 3e9, canUseTool: () => later({ behavior: 'allow' as const }) });
    const session = h.session();
    const denied: string[] = [];
    session.subscribe((e) => void (e.type === 'tool.denied' && denied.push(e.reason)));
    await session.prompt('go');
    expect(denied).toEqual([]);
  });
});
