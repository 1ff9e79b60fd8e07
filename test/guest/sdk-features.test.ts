// The guest SDK's authoring API, through a test plugin that uses all of it
// (test/fixtures/sdk-features) and raw Extism calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { loadForTest, type TestPlugin } from '../../sdk-guest/testkit/index.js';
import { builtWasm } from './built.js';

let p: TestPlugin;
beforeAll(async () => {
  p = await loadForTest(builtWasm('test/fixtures/sdk-features/build/sdk-features.wasm'));
});
afterAll(() => p?.close());

const root = protobuf.loadSync(new URL('../../proto/wasmhooks/v1/hooks.proto', import.meta.url).pathname);
const ToolRequest = root.lookupType('wasmhooks.v1.ToolRequest');
const ToolResponse = root.lookupType('wasmhooks.v1.ToolResponse');
async function rawTool(name: string, inputJson: string) {
  const out = await p.callRaw('tool', ToolRequest.encode(ToolRequest.fromObject({ name, inputJson })).finish());
  return ToolResponse.toObject(ToolResponse.decode(out), { defaults: true }) as { content: string; isError: boolean };
}

describe('describe', () => {
  it('lists every binding in registration order, the tools and the grants', async () => {
    expect(await p.describe()).toEqual({
      name: 'sdk-features',
      version: '0.1.0',
      description: 'exercises the SDK',
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
      tools: [
        { name: 'json_echo', description: 'Echoes its input', inputSchemaJson: '{"type":"object"}' },
        { name: 'count', description: 'Counts, reporting progress', inputSchemaJson: '{"type":"object","properties":{"to":{"type":"integer"}}}' },
        { name: 'fail', description: 'Always fails', inputSchemaJson: '{}' },
        { name: 'crash', description: 'Indexes past the end of an array', inputSchemaJson: '{}' },
        { name: 'config', description: 'Reads the token config key', inputSchemaJson: '{}' },
        { name: 'escape', description: 'Returns jsonString(text)', inputSchemaJson: '{"type":"object","properties":{"text":{"type":"string"}}}' },
        { name: 'memory_pages', description: 'Linear memory size in 64 KiB pages', inputSchemaJson: '{}' },
      ],
      grants: { networkHosts: ['api.example.com'], filePaths: ['/tmp/cache'], configKeys: ['token'] },
    });
  });
});

describe('hook dispatch: one binding per call, chosen by binding_index', () => {
  it('binding 0 (Bash) denies rm with its reason and system message', async () => {
    const v = await p.preToolUse('Bash', { command: 'rm x' }, {}, 0);
    expect(v).toMatchObject({ decision: 'deny', reason: 'no rm in tests', systemMessage: 'rm blocked', additionalContext: '' });
  });

  it('binding 1 ("") runs only its own handler: context, no decision', async () => {
    const v = await p.preToolUse('Bash', { command: 'rm x' }, { sessionId: 's-1' }, 1);
    expect(v).toMatchObject({ decision: 'continue', additionalContext: 'seen Bash in session s-1', reason: '', systemMessage: '' });
  });

  it('binding 2 rewrites (and keeps the input keys it copies)', async () => {
    const v = await p.preToolUse('Write', { path: 'notes.txt', content: { lines: ['a', 'b'] } }, {}, 2);
    expect(v.decision).toBe('continue');
    expect(JSON.parse(v.updatedInputJson)).toEqual({ path: '/sandbox/notes.txt', content: { lines: ['a', 'b'] } });
    expect(v.additionalContext).toBe('');
    expect((await p.preToolUse('Edit', { path: '/sandbox/a' }, {}, 2)).decision).toBe('allow');
  });

  it('does not match tool names itself: the host did (binding 0 runs for any tool it is sent)', async () => {
    expect((await p.preToolUse('Write', { command: 'rm x' }, {}, 0)).decision).toBe('deny');
  });

  it('fails the call for a binding_index of another event, or out of range', async () => {
    await expect(p.hook({ event: 'HOOK_EVENT_STOP', bindingIndex: 0, stop: {} })).rejects.toThrow(
      /hook: binding_index 0 is a HOOK_EVENT_PRE_TOOL_USE binding, but the request is HOOK_EVENT_STOP/,
    );
    await expect(p.hook({ event: 'HOOK_EVENT_PRE_TOOL_USE', bindingIndex: 9, toolUse: { toolName: 'Bash' } })).rejects.toThrow(
      /hook: binding_index 9 is out of range: plugin sdk-features has 9 bindings/,
    );
  });

  it('the test kit needs the binding when an event has several, and refuses an event with none', async () => {
    await expect(p.preToolUse('Bash', { command: 'ls' })).rejects.toThrow(/3 bindings for HOOK_EVENT_PRE_TOOL_USE \(hooks 0, 1, 2\): say which/);
    await expect(p.hook({ event: 'HOOK_EVENT_SESSION_START', session: { reason: 'startup' } })).rejects.toThrow(/no binding for HOOK_EVENT_SESSION_START/);
  });

  it('answers PermissionRequest with ask', async () => {
    const v = await p.hook({ event: 'HOOK_EVENT_PERMISSION_REQUEST', toolUse: { toolName: 'Read', toolInputJson: '{"path":"/etc/passwd"}' } });
    expect(v).toMatchObject({ decision: 'ask', reason: 'reading /etc/passwd' });
  });

  it('answers PermissionRequest with an allow and updatedPermissions (withUpdatedPermissions)', async () => {
    const v = await p.hook({ event: 'HOOK_EVENT_PERMISSION_REQUEST', toolUse: { toolName: 'Read', toolInputJson: '{"path":"/work/a.ts"}' } });
    expect(v).toMatchObject({ decision: 'allow', reason: 'the workspace' });
    expect(JSON.parse(v.updatedPermissionsJson)).toEqual([{ type: 'addRules', rules: [{ toolName: 'Read' }], behavior: 'allow', destination: 'session' }]);
  });

  it('rewrites tool output in PostToolUse', async () => {
    const v = await p.hook({ event: 'HOOK_EVENT_POST_TOOL_USE', toolResult: { toolName: 'Bash', toolInputJson: '{}', toolOutputJson: '"key=SECRET"' } });
    expect(v).toMatchObject({ decision: 'continue', updatedOutputJson: '"[redacted]"' });
  });

  it('sees the error of a failed call in PostToolUseFailure', async () => {
    const v = await p.hook({ event: 'HOOK_EVENT_POST_TOOL_USE_FAILURE', toolResult: { toolName: 'Grep', error: 'exit 2' } });
    expect(v).toMatchObject({ decision: 'continue', systemMessage: 'tool Grep failed: exit 2' });
  });

  it('blocks a Stop once, then lets it through', async () => {
    expect(await p.hook({ event: 'HOOK_EVENT_STOP', stop: {} })).toMatchObject({ decision: 'block', reason: 'the tests have not run yet' });
    expect((await p.hook({ event: 'HOOK_EVENT_STOP', stop: { stopHookActive: true } })).decision).toBe('continue');
  });

  it('denies a prompt and stops an iteration through the generic on(event)', async () => {
    expect((await p.hook({ event: 'HOOK_EVENT_USER_PROMPT_SUBMIT', prompt: { prompt: 'a forbidden topic' } })).decision).toBe('deny');
    expect((await p.hook({ event: 'HOOK_EVENT_USER_PROMPT_SUBMIT', prompt: { prompt: 'fine' } })).decision).toBe('continue');
    expect(await p.hook({ event: 'HOOK_EVENT_ITERATION_START', context: { iteration: 5 } })).toMatchObject({ decision: 'stop', reason: 'iteration limit 5 reached' });
  });

  it('fails the call when a tool event arrives without its payload', async () => {
    await expect(p.hook({ event: 'HOOK_EVENT_PRE_TOOL_USE', bindingIndex: 0 })).rejects.toThrow(/hook: a HOOK_EVENT_PRE_TOOL_USE request without a tool_use payload/);
  });
});

describe('tools', () => {
  it('round-trips JSON through the guest parser and writer', async () => {
    const input = {
      s: 'quote " backslash \\ tab \t newline \n nul \u0000 bell \u0007 é 🐢',
      n: [0, 1, -1, 1.5, 123456789012, 1e300, 2.5e-8, 9007199254740991],
      b: [true, false, null],
      nested: { empty: {}, list: [], deep: [[[{ k: 'v' }]]] },
    };
    const r = await p.tool('json_echo', input);
    expect(r.isError).toBe(false);
    expect(JSON.parse(r.content)).toEqual(input);
  });

  it('decodes \\u escapes, surrogate pairs and whitespace in tool input', async () => {
    const r = await rawTool('json_echo', ' { "a" : "\\u00e9\\ud83d\\udc22\\/" , "b":[ 1 ,2 ] }\n');
    expect(JSON.parse(r.content)).toEqual({ a: 'é🐢/', b: [1, 2] });
  });

  it('keeps the last of repeated keys, as JSON.parse does', async () => {
    const r = await rawTool('json_echo', '{"a":1,"a":2}');
    expect(JSON.parse(r.content).a).toBe(2);
  });

  it.each([
    ['{"a":1,}', 'offset 7'],
    ['{"a":01}', 'offset 6'],
    ['[1 2]', "expected ',' or ']'"],
    ['"unterminated', 'unterminated string'],
    ['{"a":"\\x"}', 'bad escape'],
    ['{"a":"tab\there"}', 'control character'],
    ['"\\u12', 'truncated .u escape at offset 3'],
    ['"ok\\u12g4"', 'bad .u escape at offset 5'],
    ['nul', 'unexpected character'],
    ['{} {}', 'unexpected text after the value'],
    ['['.repeat(200), 'nesting deeper than 128'],
  ])('fails the call with the parse error for %j', async (json, message) => {
    await expect(rawTool('json_echo', json)).rejects.toThrow(new RegExp(`not valid JSON: .*${message.replace(/[[\]]/g, '\\$&')}`));
  });

  it('reports progress through the host function, in order', async () => {
    p.progress.length = 0;
    const r = await p.tool('count', { to: 3 }, { toolUseId: 'toolu_7' });
    expect(r).toEqual({ content: 'counted to 3 for toolu_7', isError: false });
    expect(p.progress.map((m) => JSON.parse(m))).toEqual([{ done: 1, total: 3 }, { done: 2, total: 3 }, { done: 3, total: 3 }]);
  });

  it('returns tool errors as data', async () => {
    expect(await p.tool('fail', {})).toEqual({ content: 'this tool always fails (fail)', isError: true });
  });

  it('collects garbage between calls: memory stops growing under a steady load', async () => {
    const big = { text: 'x'.repeat(50_000), list: Array.from({ length: 500 }, (_, i) => ({ i, s: `item ${i}` })) };
    const pages = async () => Number((await p.tool('memory_pages', {})).content);
    for (let i = 0; i < 50; i++) await p.tool('json_echo', big);
    const warm = await pages();
    for (let i = 0; i < 300; i++) await p.tool('json_echo', big);
    // 300 calls allocate well over 100 MiB in total; without collection memory would grow by that much.
    expect(await pages()).toBeLessThanOrEqual(warm + 4);
  });

  it('turns a runtime failure in the guest into a trap, with the message and place in the log', async () => {
    p.logs.length = 0;
    await expect(p.tool('crash', { items: [1] })).rejects.toThrow(/unreachable/);
    expect(p.logs).toContain('info: about to index past the end');
    expect(p.logs.some((l) => /^error: plugin aborted: Index out of range at ~lib\/array\.ts:\d+:\d+$/.test(l))).toBe(true);
  });

  it('fails the call for a tool it does not have', async () => {
    await expect(p.tool('nope', {})).rejects.toThrow(/plugin sdk-features has no tool named "nope"/);
  });
});
