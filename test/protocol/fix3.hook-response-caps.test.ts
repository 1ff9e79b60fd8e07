// fix3 item 6 (vitest twin of the scenario in test/xrt/fix3.xrt.ts): each HookResponse text field has a cap
// below maxOutputBytes; past it the answer is refused whole (BAD_OUTPUT, the hook's failure policy applies).
import { describe, expect, it } from 'vitest';
import { decodeHookResponse, HOOK_CONTEXT_MAX_CHARS, HOOK_REASON_MAX_CHARS } from '../../host/protocol/codec.js';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';

const v1 = wasmhooks.v1;

const answer = (fields: Record<string, unknown>) => decodeHookResponse(v1.HookResponse.encode({ decision: v1.Decision.DECISION_DENY, ...fields }).finish());

describe('HookResponse text field caps', () => {
  for (const [field, wire, max] of [
    ['reason', 'reason', HOOK_REASON_MAX_CHARS],
    ['systemMessage', 'system_message', HOOK_REASON_MAX_CHARS],
    ['additionalContext', 'additional_context', HOOK_CONTEXT_MAX_CHARS],
  ] as const) {
    it(`${wire}: ${max} characters are kept, ${max + 1} refused with a message naming the field and its cap`, () => {
      const at = answer({ [field]: 'é'.repeat(max) });
      expect(at.ok && at.value[field]?.length).toBe(max);
      const over = answer({ [field]: 'a'.repeat(max + 1) });
      expect(over.ok).toBe(false);
      if (!over.ok) {
        expect(over.failure.code).toBe('BAD_OUTPUT');
        expect(over.failure.message).toContain(`hook output ${wire} is ${max + 1} characters, above its cap of ${max}`);
      }
    });
  }
  it('the caps are far below maxOutputBytes (1 MiB) and the reason cap below the context cap', () => {
    expect(HOOK_REASON_MAX_CHARS).toBeLessThan(HOOK_CONTEXT_MAX_CHARS);
    expect(HOOK_CONTEXT_MAX_CHARS).toBeLessThan(1 << 20);
  });
});
