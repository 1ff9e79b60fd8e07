// Red review (red8), class "data that means one thing here and another a step later": a "__proto__"
// key (JSON.parse makes it an own key; an assignment copy makes it the prototype) or a key named
// twice in a plugin's JSON. Each test fails on the code before the fix.
import { describe, expect, it } from 'vitest';
import { loadPlugin } from '../../host/plugins/index.js';
import { encodePluginInfo } from '../../host/protocol/pb-codec.js';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';
import type { HookInput, HookInputOf } from '../../host/hooks/types.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { cannedPlugin } from '../fixtures/canned.js';
import { host } from '../agent/helpers.js';

const preToolUse: HookInput = { hook_event_name: 'PreToolUse', session_id: 's', cwd: '/', turn: 1, iteration: 1, permission_mode: 'default', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't' };

async function answerWith(updatedInputJson: string) {
  const info = encodePluginInfo({ name: 'rewriter', version: '0.1.0', protocolVersion: 1, hooks: [{ event: wasmhooks.v1.HookEvent.HOOK_EVENT_PRE_TOOL_USE }] });
  const hook = wasmhooks.v1.HookResponse.encode({ decision: wasmhooks.v1.Decision.DECISION_ALLOW, updatedInputJson }).finish();
  const plugin = await loadPlugin({ bytes: cannedPlugin({ describe: info, hook }) });
  try {
    return await plugin.hooks()[0]!.run(preToolUse, { signal: new AbortController().signal });
  } finally {
    await plugin.close();
  }
}

describe("a plugin's JSON", () => {
  it('an updated input with a "__proto__" key is BAD_OUTPUT (a guard fails closed on it)', async () => {
    const result = await answerWith('{"command":"ls","__proto__":{"command":"rm -rf /"}}');
    expect(!result.ok && result.failure).toMatchObject({ code: 'BAD_OUTPUT', message: expect.stringMatching(/__proto__/) });
  });

  it('an updated input that names a key twice is BAD_OUTPUT (readers disagree on which counts)', async () => {
    const result = await answerWith('{"command":"ls","command":"rm -rf /"}');
    expect(!result.ok && result.failure).toMatchObject({ code: 'BAD_OUTPUT', message: expect.stringMatching(/twice/) });
  });

  it('an ordinary rewrite still reads', async () => {
    const result = await answerWith('{"command":"ls -la"}');
    expect(result.ok && result.output.updatedInput).toEqual({ command: 'ls -la' });
  });
});

describe('a JS hook sees the tool input the tool gets', () => {
  it('an own "__proto__" key in the model\'s arguments stays an own key in the hook\'s copy', async () => {
    // The model's arguments come through JSON.parse: "__proto__" is an own key there. The hook's copy
    // assigned it, so the hook read `command` from the prototype: a value the tool never got.
    const input = JSON.parse('{"__proto__":{"command":"ls"}}') as Record<string, unknown>;
    const model = scriptedModel({ rules: [{ when: { lastUser: 'go' }, reply: { toolCalls: [{ name: 'Read', input }] }, times: 1 }], turns: [{ text: 'done' }] });
    const seen: unknown[] = [];
    const h = host({ model, permissionMode: 'bypassPermissions', hooks: { PreToolUse: [{ hooks: [async (i) => (seen.push((i as HookInputOf<'PreToolUse'>).tool_input), {})] }] } });
    await h.session().prompt('go');
    const toolInput = seen[0] as Record<string, unknown>;
    expect(Object.getPrototypeOf(toolInput)).toBe(Object.prototype);
    expect(toolInput.command).toBeUndefined();
    expect(Object.hasOwn(toolInput, '__proto__')).toBe(true);
  });
});
