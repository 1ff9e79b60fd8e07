import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';
import { decodeHookResponse, decodePluginInfo, eventFromWire, eventToWire, HOOK_EVENT_NAMES } from '../../host/protocol/codec.js';
import { decodeToolResponse, encodePluginInfo } from '../../host/protocol/pb-codec.js';

const v1 = wasmhooks.v1;
const info = (over: wasmhooks.v1.PluginInfo.$Properties = {}) =>
  encodePluginInfo({ name: 'guard', version: '1.0.0', protocolVersion: 1, ...over });
const response = (r: wasmhooks.v1.HookResponse.$Properties) => v1.HookResponse.encode(r).finish();

describe('protocol codec', () => {
  it('generated code is up to date with proto/', () => {
    expect(() => execFileSync('node', ['scripts/gen-proto.mjs', '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it('docs/protocol.md is up to date with the .proto comments', () => {
    expect(() => execFileSync('node', ['scripts/gen-protocol-doc.mjs', '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it('maps every proto HookEvent to a name and back', () => {
    const wire = Object.entries(v1.HookEvent).filter(([k]) => k !== 'HOOK_EVENT_UNSPECIFIED');
    expect(wire).toHaveLength(HOOK_EVENT_NAMES.length);
    for (const [key, value] of wire) {
      const name = eventFromWire(value as number)!;
      expect(key).toBe(`HOOK_EVENT_${name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}`);
      expect(eventToWire(name)).toBe(value);
    }
  });

  it('decodes a describe answer with bindings, tools and grants', () => {
    const bytes = info({
      hooks: [
        { event: v1.HookEvent.HOOK_EVENT_PRE_TOOL_USE, matcher: 'Bash|Shell' },
        { event: v1.HookEvent.HOOK_EVENT_STOP, failurePolicy: v1.FailurePolicy.FAILURE_POLICY_FAIL_OPEN },
      ],
      tools: [{ name: 'calc', description: 'adds', inputSchemaJson: '{"type":"object"}' }],
      grants: { configKeys: ['limit'] },
    });
    const decoded = decodePluginInfo(bytes);
    expect(decoded).toEqual({
      ok: true,
      value: {
        name: 'guard',
        version: '1.0.0',
        description: '',
        protocolVersion: 1,
        hooks: [
          { event: 'PreToolUse', matcher: 'Bash|Shell' },
          { event: 'Stop', matcher: '', failurePolicy: 'fail-open' },
        ],
        tools: [{ name: 'calc', description: 'adds', inputSchema: { type: 'object' } }],
        grants: { networkHosts: [], filePaths: [], configKeys: ['limit'] },
      },
    });
  });

  it('refuses an unknown protocol major with a message that says what to do', () => {
    const decoded = decodePluginInfo(info({ protocolVersion: 2 }));
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) {
      expect(decoded.failure.code).toBe('PROTOCOL_MISMATCH');
      expect(decoded.failure.message).toMatch(/speaks protocol v2, this host speaks v1/);
    }
  });

  it.each([
    ['garbage bytes', new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f, 0x0a]), /not valid protobuf|protocol_version/],
    ['an invalid matcher', info({ hooks: [{ event: 6, matcher: '(' }] }), /hooks\[0\] \(PreToolUse\) has an invalid matcher: matcher "\(" is not a valid regular expression/],
    ['a backreference', info({ hooks: [{ event: 6, matcher: '(a)\\1' }] }), /hooks\[0\] .*not a valid regular expression \(RE2 syntax/],
    ['a counted repetition too large', info({ hooks: [{ event: 6, matcher: '.{1000}' }] }), /hooks\[0\] .*counted repetitions/],
    ['an overlong matcher', info({ hooks: [{ event: 6, matcher: 'a|'.repeat(200) + 'a' }] }), /hooks\[0\] .*401 characters long; the limit is 256/],
    ['too many bindings', info({ hooks: Array.from({ length: 65 }, () => ({ event: 6 })) }), /has 65 entries in PluginInfo.hooks \(hook bindings\); the limit is 64/],
    ['matchers too long in total', info({ hooks: Array.from({ length: 9 }, (_, i) => ({ event: 6, matcher: `${i}`.repeat(250) })) }), /hooks\[8\] \(PreToolUse\): the matchers cost more than 2048 in all/],
    ['an unknown event', info({ hooks: [{ event: 99 as wasmhooks.v1.HookEvent }] }), /unknown event 99/],
    ['an unknown failure policy', info({ hooks: [{ event: 6, failurePolicy: 3 as wasmhooks.v1.FailurePolicy }] }), /unknown failure_policy 3/],
    // A negative enum value (a 10-byte varint) is as unknown as 3: not read as fail-open.
    ['a negative failure policy', info({ hooks: [{ event: 6, failurePolicy: -1 as wasmhooks.v1.FailurePolicy }] }), /unknown failure_policy -1/],
    ['a non-JSON schema', info({ tools: [{ name: 't', inputSchemaJson: '{' }] }), /not valid JSON/],
    ['duplicate tools', info({ tools: [{ name: 't' }, { name: 't' }] }), /duplicate tool name/],
    // Each tool is host work at load (a duplicate check, a schema): 40 000 tools in 280 KB took 11 s of unmetered CPU.
    ['too many tools', info({ tools: Array.from({ length: 257 }, (_, i) => ({ name: `t${i}` })) }), /has 257 entries in PluginInfo.tools \(tools\); the limit is 256/],
    ['no name', info({ name: '' }), /empty plugin name/],
    // Red review (red4): a plugin's tool names were not checked at all. MCP tools register at the first prompt, after
    // plugins, so a plugin's `mcp__fs__read_file` took the MCP tool's name (and the rules written for it).
    ['a tool named in the MCP servers\' namespace', info({ tools: [{ name: 'mcp__fs__read_file' }] }), /names starting with mcp__ belong to MCP servers/],
    ['a tool name with a space', info({ tools: [{ name: 'Bash ' }] }), /tools\[0\] name "Bash " must match/],
    ['a tool name with a lookalike letter', info({ tools: [{ name: 'B\u0430sh' }] }), /must match/],
    ['a tool name past 64 characters', info({ tools: [{ name: 'x'.repeat(65) }] }), /must match/],
    // Each grant is compared with the config's and the lock's at every load: 40,000 config keys took 4 s there.
    // Each hook call's events carry the name three times: a 1 MiB name was megabytes of events per call (red4).
    ['a name past 128 characters', info({ name: 'n'.repeat(129) }), /name is 129 characters; the limit is 128/],
    ['a description past 4096 characters', info({ description: 'd'.repeat(4097) }), /description is 4097 characters; the limit is 4096/],
    ['too many grants', info({ grants: { configKeys: Array.from({ length: 257 }, (_, i) => `k${i}`) } }), /has 257 entries in Grants.config_keys \(config keys\); the limit is 256/],
  ])('rejects a describe answer with %s', (_, bytes, message) => {
    const decoded = decodePluginInfo(bytes);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.failure.message).toMatch(message);
  });

  it('decodes hook responses and validates their JSON fields', () => {
    expect(decodeHookResponse(new Uint8Array())).toEqual({ ok: true, value: { decision: 'continue' } });
    expect(
      decodeHookResponse(response({ decision: v1.Decision.DECISION_DENY, reason: 'no', updatedInputJson: '{"a":1}' })),
    ).toEqual({ ok: true, value: { decision: 'deny', reason: 'no', updatedInput: { a: 1 } } });
    const notObject = decodeHookResponse(response({ updatedInputJson: '[1]' }));
    expect(notObject.ok || notObject.failure).toMatchObject({ code: 'BAD_OUTPUT', message: /JSON object/ });
    const unknown = decodeHookResponse(response({ decision: 42 as wasmhooks.v1.Decision }));
    expect(unknown.ok || unknown.failure).toMatchObject({ code: 'BAD_OUTPUT', message: /unknown decision 42/ });
    const truncated = decodeHookResponse(response({ reason: 'a long reason' }).subarray(0, 5));
    expect(truncated.ok || truncated.failure).toMatchObject({ code: 'BAD_OUTPUT' });
  });

  it('refuses JSON in a plugin output nested deeper than the host-wide bound (BAD_OUTPUT), so a guard fails closed', () => {
    const deep = `{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const refused = decodeHookResponse(response({ decision: v1.Decision.DECISION_ALLOW, updatedInputJson: deep }));
    expect(refused.ok || refused.failure).toMatchObject({ code: 'BAD_OUTPUT', message: /updated_input_json nests .* deeper than 64 levels/ });
    const fine = `{"a":${'['.repeat(60)}${']'.repeat(60)}}`;
    expect(decodeHookResponse(response({ updatedInputJson: fine })).ok).toBe(true);
  });

  it('decodes tool responses', () => {
    const bytes = v1.ToolResponse.encode({ content: '42', isError: true }).finish();
    expect(decodeToolResponse(bytes)).toEqual({ ok: true, value: { content: '42', isError: true } });
  });
});
