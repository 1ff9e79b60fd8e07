// The C SDK's authoring API (sdk-c/wasmhooks.h), through a test plugin that uses
// all of it (test/fixtures/sdk-features-c), called raw through Extism.
// Dispatch is the AssemblyScript SDK's rule: the host calls `hook` once per
// matching binding with its binding_index, and the SDK runs exactly that
// binding's handler (no guest-side matching or chaining; see docs/abi.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { loadForTest, type TestPlugin } from '../../sdk-guest/testkit/index.js';
import { builtWasm } from './built.js';

let p: TestPlugin;
beforeAll(async () => {
  p = await loadForTest(builtWasm('test/fixtures/sdk-features-c/build/sdk-features-c.wasm'), { config: { token: 's3cret' } });
});
afterAll(() => p?.close());

const root = protobuf.loadSync(new URL('../../proto/wasmhooks/v1/hooks.proto', import.meta.url).pathname);
const ToolRequest = root.lookupType('wasmhooks.v1.ToolRequest');
const ToolResponse = root.lookupType('wasmhooks.v1.ToolResponse');
async function rawTool(name: string, inputJson: string) {
  const out = await p.callRaw('tool', ToolRequest.encode(ToolRequest.fromObject({ name, inputJson })).finish());
  return ToolResponse.toObject(ToolResponse.decode(out), { defaults: true }) as { content: string; isError: boolean };
}
const preToolUse = (bindingIndex: number, toolName: string, input: unknown, context: Record<string, unknown> = {}) =>
  p.hook({ event: 'HOOK_EVENT_PRE_TOOL_USE', bindingIndex, context, toolUse: { toolName, toolInputJson: JSON.stringify(input) } });

describe('describe', () => {
  it('lists every binding in registration order, the tools and the grants', async () => {
    const info = await p.describe();
    expect(info).toMatchObject({
      name: 'sdk-features-c',
      version: '0.1.0',
      description: 'exercises the C SDK',
      protocolVersion: 1,
      hooks: [
        { event: 'HOOK_EVENT_PRE_TOOL_USE', matcher: 'Bash', failurePolicy: 'FAILURE_POLICY_FAIL_CLOSED' },
        { event: 'HOOK_EVENT_PRE_TOOL_USE' },
        { event: 'HOOK_EVENT_PRE_TOOL_USE', matcher: '^(Write|Edit)$' },
        { event: 'HOOK_EVENT_PERMISSION_REQUEST', matcher: 'Read' },
        { event: 'HOOK_EVENT_POST_TOOL_USE', matcher: 'Bash', failurePolicy: 'FAILURE_POLICY_FAIL_OPEN' },
        { event: 'HOOK_EVENT_POST_TOOL_USE_FAILURE' },
        { event: 'HOOK_EVENT_STOP' },
        { event: 'HOOK_EVENT_USER_PROMPT_SUBMIT' },
        { event: 'HOOK_EVENT_ITERATION_START' },
      ],
      grants: { configKeys: ['token'] },
    });
    expect((info.tools as { name: string }[]).map((t) => t.name)).toEqual(['json_echo', 'count', 'fields', 'fail', 'config', 'escape', 'memory_pages', 'crash']);
    expect((info.tools as { inputSchemaJson: string }[])[1]!.inputSchemaJson).toBe('{"type":"object","properties":{"to":{"type":"integer"}}}');
  });
});

describe('hook dispatch by binding_index', () => {
  it('runs the binding the host names: deny with a system message, or no opinion', async () => {
    expect(await preToolUse(0, 'Bash', { command: 'rm x' })).toMatchObject({ decision: 'deny', reason: 'no rm in tests', systemMessage: 'rm blocked' });
    expect(await preToolUse(0, 'Bash', { command: 'ls' })).toMatchObject({ decision: 'continue', reason: '', additionalContext: '' });
    expect(await preToolUse(1, 'Bash', { command: 'rm x' }, { sessionId: 's-1' })).toMatchObject({ decision: 'continue', additionalContext: 'seen Bash in session s-1' });
  });

  it('rewrites input, keeping the JSON it copies verbatim', async () => {
    const v = await preToolUse(2, 'Write', { path: 'notes "1".txt', content: { lines: ['a', 'b'] } });
    expect(v.decision).toBe('continue');
    expect(JSON.parse(v.updatedInputJson)).toEqual({ path: '/sandbox/notes "1".txt', content: { lines: ['a', 'b'] } });
    expect((await preToolUse(2, 'Edit', { path: '/sandbox/a' })).decision).toBe('allow');
  });

  it('fails the call for a binding_index of another event, or out of range (the AssemblyScript SDK\'s rule)', async () => {
    await expect(preToolUse(6, 'Bash', { command: 'rm -r x' })).rejects.toThrow(/hook: binding_index 6 is a HOOK_EVENT_STOP binding, but the request is HOOK_EVENT_PRE_TOOL_USE/);
    await expect(preToolUse(9, 'Bash', { command: 'ls' })).rejects.toThrow(/hook: binding_index 9 is out of range: plugin sdk-features-c has 9 bindings/);
    await expect(p.hook({ event: 99 as never, bindingIndex: 0, toolUse: { toolName: 'Bash' } })).rejects.toThrow(/binding, but the request is HookEvent 99/);
  });

  it('answers PermissionRequest, PostToolUse and PostToolUseFailure', async () => {
    expect(await p.hook({ event: 'HOOK_EVENT_PERMISSION_REQUEST', bindingIndex: 3, toolUse: { toolName: 'Read', toolInputJson: '{"path":"/etc/passwd"}' } })).toMatchObject({ decision: 'ask', reason: 'reading /etc/passwd' });
    const inside = await p.hook({ event: 'HOOK_EVENT_PERMISSION_REQUEST', bindingIndex: 3, toolUse: { toolName: 'Read', toolInputJson: '{"path":"/work/a.c"}' } });
    expect(inside).toMatchObject({ decision: 'allow', reason: 'the workspace' });
    expect(JSON.parse(inside.updatedPermissionsJson)).toEqual([{ type: 'addRules', rules: [{ toolName: 'Read' }], behavior: 'allow', destination: 'session' }]);
    expect(await p.hook({ event: 'HOOK_EVENT_POST_TOOL_USE', bindingIndex: 4, toolResult: { toolName: 'Bash', toolInputJson: '{}', toolOutputJson: '"key=SECRET"' } })).toMatchObject({ decision: 'continue', updatedOutputJson: '"[redacted]"' });
    expect(await p.hook({ event: 'HOOK_EVENT_POST_TOOL_USE_FAILURE', bindingIndex: 5, toolResult: { toolName: 'Grep', error: 'exit 2' } })).toMatchObject({ decision: 'continue', systemMessage: 'tool Grep failed: exit 2' });
  });

  it('blocks a Stop once, denies a prompt, stops an iteration', async () => {
    expect(await p.hook({ event: 'HOOK_EVENT_STOP', bindingIndex: 6, stop: {} })).toMatchObject({ decision: 'block', reason: 'the tests have not run yet' });
    expect((await p.hook({ event: 'HOOK_EVENT_STOP', bindingIndex: 6, stop: { stopHookActive: true } })).decision).toBe('continue');
    expect((await p.hook({ event: 'HOOK_EVENT_USER_PROMPT_SUBMIT', bindingIndex: 7, prompt: { prompt: 'a forbidden topic' } })).decision).toBe('deny');
    expect((await p.hook({ event: 'HOOK_EVENT_USER_PROMPT_SUBMIT', bindingIndex: 7, prompt: { prompt: 'fine' } })).decision).toBe('continue');
    expect(await p.hook({ event: 'HOOK_EVENT_ITERATION_START', bindingIndex: 8, context: { iteration: 5 } })).toMatchObject({ decision: 'stop', reason: 'iteration limit 5 reached' });
  });

  it('decodes a batch of 40 000 calls (arena growth for repeated messages) and a 900 KB tool input', async () => {
    const calls = Array.from({ length: 40_000 }, (_, i) => ({ id: `t${i}`, name: 'Bash', inputJson: '{}' }));
    // Decoded to the end, then refused for routing: the plugin has no PostToolBatch binding.
    await expect(p.hook({ event: 'HOOK_EVENT_POST_TOOL_BATCH', bindingIndex: 0, toolBatch: { calls } })).rejects.toThrow(/but the request is HOOK_EVENT_POST_TOOL_BATCH/);
    const big = { command: `echo ${'x'.repeat(900_000)}` };
    expect((await preToolUse(0, 'Bash', big)).decision).toBe('continue');
    expect((await preToolUse(0, 'Bash', { command: 'rm -rf x' })).decision).toBe('deny');
  });

  it('never traps on mangled HookRequests (2000 seeded mutations, every binding): an answer or a message', async () => {
    const HookRequest = root.lookupType('wasmhooks.v1.HookRequest');
    const seeds = [
      { event: 6, bindingIndex: 0, context: { sessionId: 's', iteration: 2 }, toolUse: { toolName: 'Bash', toolInputJson: '{"command":"rm -rf x","n":[1,{"a":"\\u00e9"}]}' } },
      { event: 8, bindingIndex: 4, toolResult: { toolName: 'Bash', toolInputJson: '{}', toolOutputJson: '"SECRET"', error: 'e' } },
      { event: 11, bindingIndex: 6, stop: { stopHookActive: true, lastAssistantMessage: 'done' } },
      { event: 3, bindingIndex: 7, prompt: { prompt: 'forbidden' } },
    ].map((m) => [...HookRequest.encode(HookRequest.fromObject(m)).finish()]);
    let seed = 0xc0de;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed % n;
    };
    let answered = 0;
    for (let i = 0; i < 2000; i++) {
      const b = [...seeds[rand(seeds.length)]!];
      const op = rand(3);
      if (op === 0) b.length = rand(b.length + 1);
      else if (op === 1) for (let k = 0; k <= rand(4); k++) b[rand(b.length)]! ^= 1 << rand(8);
      else b.splice(rand(b.length + 1), 0, ...Array.from({ length: 1 + rand(6) }, () => rand(256)));
      try {
        await p.callRaw('hook', Uint8Array.from(b));
        answered++;
      } catch (error) {
        expect((error as Error).message, Buffer.from(b).toString('hex')).toMatch(/^Plugin-originated error: hook: /);
      }
    }
    // Most mutations break the protobuf or the JSON inside it; some still make a request worth answering.
    expect(answered).toBeGreaterThan(10);
  }, 120_000);

  it('refuses an event it has no binding for (the host never sends one)', async () => {
    await expect(p.hook({ event: 'HOOK_EVENT_SESSION_START', bindingIndex: 0, session: { reason: 'startup' } })).rejects.toThrow(/binding_index 0 is a HOOK_EVENT_PRE_TOOL_USE binding, but the request is HOOK_EVENT_SESSION_START/);
  });

  it('fails the call (never traps) on a tool event without its payload, bad input JSON or bad bytes', async () => {
    await expect(p.hook({ event: 'HOOK_EVENT_PRE_TOOL_USE', bindingIndex: 0 })).rejects.toThrow(/hook: a HOOK_EVENT_PRE_TOOL_USE request without a tool_use payload/);
    await expect(p.hook({ event: 'HOOK_EVENT_PRE_TOOL_USE', bindingIndex: 0, toolUse: { toolName: 'Bash', toolInputJson: '{"command":' } })).rejects.toThrow(/hook: tool_input_json is not valid JSON: unexpected end of input/);
    await expect(p.callRaw('hook', Uint8Array.from([0x12, 0x05]))).rejects.toThrow(/hook: input is not a valid HookRequest: length 5 runs past the end of the message at byte 2/);
    expect((await preToolUse(0, 'Bash', { command: 'ls' })).decision).toBe('continue');
  });
});

describe('tools', () => {
  it('passes validated JSON through untouched', async () => {
    const input = { s: 'quote " backslash \\ tab \t nul \u0000 é 🐢', n: [0, -1, 1.5, 1e300], b: [true, false, null], nested: { deep: [[[{ k: 'v' }]]] } };
    const r = await p.tool('json_echo', input);
    expect(r.isError).toBe(false);
    expect(JSON.parse(r.content)).toEqual(input);
  });

  it('reads typed fields: integers, booleans, arrays, nested objects, escapes and surrogate pairs', async () => {
    const r = await rawTool('fields', ' { "n" : -42 , "flag":true, "items":["a\\u00e9\\ud83d\\udc22\\/", 7, {"x":1}], "outer":{"inner":"in\\"side"}, "n": 43 }\n');
    expect(JSON.parse(r.content)).toEqual({ n: 43, flag: true, items: ['aé🐢/', '7', '{"x":1}'], nested: 'in"side' });
    expect(JSON.parse((await p.tool('fields', { n: 1.5 })).content)).toMatchObject({ n: -1, flag: false, items: [] });
  });

  it.each([
    ['{"a":1,}', 'an object key that is not a string'],
    ['{"a":01}', "a missing ','"],
    ['[1 2]', "a missing ','"],
    ['"unterminated', 'an unterminated string'],
    ['{"a":"\\x"}', 'a bad escape'],
    ['{"a":"tab\there"}', 'a control character inside a string'],
    ['"ok\\u12g4"', 'a bad \\\\u escape'],
    ['nul', 'an unexpected character'],
    ['{} {}', 'text after the value'],
    ['['.repeat(200), 'nesting deeper than 64'],
  ])('fails the call with the parse error for %j', async (json, message) => {
    await expect(rawTool('json_echo', json)).rejects.toThrow(new RegExp(`tool: input_json of tool json_echo is not valid JSON: ${message.replace(/[[\]]/g, '\\$&')}`));
  });

  it('steps over long strings a word at a time and still finds every key, quote and escape after them', async () => {
    // Quotes, escaped quotes and backslashes at every offset around the 8-byte steps of the validator and the lookups.
    for (let at = 0; at <= 17; at++) {
      const pad = 'abcdefghijklmnopq'.slice(0, at);
      const long = `${pad}"\\${'x'.repeat(40)}é🐢"${pad}`;
      const input = { skip: long, items: [long, long], outer: { skip: long, inner: `${pad}in"side${pad}` }, n: 7, flag: true };
      expect(JSON.parse((await p.tool('fields', input)).content)).toEqual({ n: 7, flag: true, items: [long, long], nested: input.outer.inner });
      for (const [tail, message] of [['\\x"}', 'a bad escape'], ['\u0001"}', 'a control character inside a string'], ['', 'an unterminated string']]) {
        await expect(rawTool('json_echo', `{"a":"${pad}${'y'.repeat(at)}${tail}`)).rejects.toThrow(`not valid JSON: ${message}`);
      }
    }
  });

  it('escapes text as a JSON string', async () => {
    const text = 'a "q" \\ \n\t\u0001 é';
    expect(JSON.parse((await p.tool('escape', { text })).content)).toBe(text);
  });

  it('reports progress through the host function, in order', async () => {
    p.progress.length = 0;
    expect(await p.tool('count', { to: 3 }, { toolUseId: 'toolu_7' })).toEqual({ content: 'counted to 3 for toolu_7', isError: false });
    expect(p.progress.map((m) => JSON.parse(m))).toEqual([{ done: 1, total: 3 }, { done: 2, total: 3 }, { done: 3, total: 3 }]);
  });

  it('reads granted config with a fallback, and logs', async () => {
    p.logs.length = 0;
    expect((await p.tool('config', {})).content).toBe('[s3cret] s3cret');
    expect(p.logs).toContain('info: config read, token set: yes');
  });

  it('returns tool errors as data, and fails the call for a tool it does not have', async () => {
    expect(await p.tool('fail', {})).toEqual({ content: 'this tool always fails (fail)', isError: true });
    await expect(p.tool('nope', {})).rejects.toThrow(/plugin sdk-features-c has no tool named "nope"/);
  });

  it('frees every call\'s memory: the arena is reset, so memory stops growing under a steady load', async () => {
    const big = { text: 'x'.repeat(50_000), list: Array.from({ length: 500 }, (_, i) => ({ i, s: `item ${i}` })) };
    const pages = async () => Number((await p.tool('memory_pages', {})).content);
    await p.tool('json_echo', big);
    const warm = await pages();
    for (let i = 0; i < 100; i++) await p.tool('json_echo', big);
    expect(await pages()).toBe(warm);
  });

  it('a trap in a handler is a trap (the host turns it into a failure), with the log line before it', async () => {
    p.logs.length = 0;
    await expect(p.tool('crash', {})).rejects.toThrow(/unreachable/);
    expect(p.logs).toContain('info: about to trap');
  });
});

describe('without the config key', () => {
  it('sees no value and uses the fallback', async () => {
    const bare = await loadForTest(builtWasm('test/fixtures/sdk-features-c/build/sdk-features-c.wasm'));
    try {
      expect((await bare.tool('config', {})).content).toBe('(null) fallback');
    } finally {
      await bare.close();
    }
  });
});
