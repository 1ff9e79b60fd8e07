// A guest can tell a re-check from a first round: ToolUsePayload.recheck reaches
// `ToolUse.recheck` (AssemblyScript SDK) and `wh_tool_use.recheck` (C SDK). The two
// builds of recheck-guard answer the same bytes with the same bytes, and differently
// on a re-check. The host side (the loop sets the mark) is test/agent/recheck.test.ts
// and test/xrt/recheck.xrt.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { loadForTest, type TestPlugin } from '../../sdk-guest/testkit/index.js';
import { builtWasm } from './built.js';

const root = protobuf.loadSync(new URL('../../proto/wasmhooks/v1/hooks.proto', import.meta.url).pathname);
const HookRequest = root.lookupType('wasmhooks.v1.HookRequest');

const builds = { as: 'test/fixtures/recheck-guard/build/recheck-guard.wasm', c: 'test/fixtures/recheck-guard-c/build/recheck-guard-c.wasm' };
const plugins: Partial<Record<keyof typeof builds, TestPlugin>> = {};
beforeAll(async () => {
  for (const [sdk, path] of Object.entries(builds)) plugins[sdk as keyof typeof builds] = await loadForTest(builtWasm(path));
});
afterAll(async () => {
  for (const p of Object.values(plugins)) await p?.close();
});

const request = (command: string, recheck?: boolean) => ({
  event: 'HOOK_EVENT_PRE_TOOL_USE',
  context: { sessionId: 's', toolUseId: 'toolu_1' },
  toolUse: { toolName: 'Bash', toolInputJson: JSON.stringify({ command }), ...(recheck === undefined ? {} : { recheck }) },
});

describe.each(Object.keys(builds) as Array<keyof typeof builds>)('recheck-guard (%s SDK)', (sdk) => {
  const p = () => plugins[sdk]!;

  it('allows on a first round, the mark absent or false', async () => {
    for (const r of [request('ls -la'), request('ls -la', false)]) {
      expect(await p().hook(r)).toMatchObject({ decision: 'allow', reason: 'first round: ls -la' });
    }
  });

  it('refuses the same command on a re-check, and still allows an echo', async () => {
    expect(await p().hook(request('ls -la', true))).toMatchObject({ decision: 'deny', reason: 're-check: ls -la was rewritten after the first round' });
    expect(await p().hook(request('echo hi', true))).toMatchObject({ decision: 'allow', reason: 're-check: echo hi is an echo' });
  });

  it('reads the mark wherever it sits in the payload and however its varint is written', async () => {
    // tool_use (field 12) holding recheck (field 3) as the two-byte varint 81 00, then tool_name, then tool_input_json.
    const input = Buffer.from(JSON.stringify({ command: 'ls' }));
    const body = Buffer.concat([Buffer.from('188100', 'hex'), Buffer.from('0a0442617368', 'hex'), Buffer.from([0x12, input.length]), input]);
    const bytes = Buffer.concat([Buffer.from('0806', 'hex'), Buffer.from([0x62, body.length]), body]);
    const Response = root.lookupType('wasmhooks.v1.HookResponse');
    const out = Response.toObject(Response.decode(await p().callRaw('hook', bytes)), { enums: String });
    expect(out).toMatchObject({ decision: 'DECISION_DENY', reason: 're-check: ls was rewritten after the first round' });
  });
});

it('the AssemblyScript and C builds answer every request with the same bytes', async () => {
  for (const r of [request('ls'), request('ls', true), request('echo ✓', true), request('', true)]) {
    const bytes = HookRequest.encode(HookRequest.fromObject({ ...r, bindingIndex: 0 })).finish();
    const [a, c] = [await plugins.as!.callRaw('hook', bytes), await plugins.c!.callRaw('hook', bytes)];
    expect(Buffer.from(c).toString('hex'), JSON.stringify(r)).toBe(Buffer.from(a).toString('hex'));
  }
});
