import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { loadPlugin, sha256 } from '../../host/plugins/index.js';
import { encodePluginInfo } from '../../host/protocol/pb-codec.js';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';
import { cannedPlugin } from '../fixtures/canned.js';
import { preToolUse as preToolUseInput } from '../plugins-firstparty/wasm.js';

const v1 = wasmhooks.v1;
const info = (over: wasmhooks.v1.PluginInfo.$Properties = {}) =>
  encodePluginInfo({ name: 'canned', version: '0.1.0', protocolVersion: 1, ...over });
const deny = v1.HookResponse.encode({ decision: v1.Decision.DECISION_DENY, reason: 'canned says no' }).finish();

async function rejects(promise: Promise<unknown>, code: string, message: RegExp) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WasmhooksError);
  expect((error as WasmhooksError).code).toBe(code);
  expect((error as WasmhooksError).message).toMatch(message);
}

const preToolUse = preToolUseInput('Bash', { command: 'ls' }, { cwd: '/work' });

describe('loadPlugin', () => {
  it('loads a plugin, exposes its bindings as hook handlers and calls them', async () => {
    const bytes = cannedPlugin({
      describe: info({ hooks: [{ event: v1.HookEvent.HOOK_EVENT_PRE_TOOL_USE, matcher: 'Bash' }] }),
      hook: deny,
    });
    const plugin = await loadPlugin({ bytes });
    const [handler] = plugin.hooks();
    expect(handler).toMatchObject({ name: 'canned', kind: 'wasm', event: 'PreToolUse', failurePolicy: 'fail-closed' });
    expect(handler!.matcher!.test('Bash')).toBe(true);
    expect(handler!.matcher!.test('BashX')).toBe(false);
    const result = await handler!.run(preToolUse, { signal: new AbortController().signal });
    expect(result).toMatchObject({ ok: true, output: { decision: 'deny', reason: 'canned says no' } });
    expect(result.fuelUsed).toBeGreaterThan(0);
    await plugin.close();
  });

  it('reads from a path and checks a sha256 pin before compiling', async () => {
    const bytes = cannedPlugin({ describe: info() });
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-'));
    const path = join(dir, 'canned.wasm');
    await writeFile(path, bytes);
    const plugin = await loadPlugin({ path, sha256: await sha256(bytes) });
    expect(plugin.sha256).toBe(await sha256(bytes));
    await plugin.close();
    await rejects(loadPlugin({ path, sha256: '0'.repeat(64) }), 'INTEGRITY', /expected sha256 0{64}, got [0-9a-f]{64}/);
    await rejects(loadPlugin({ path: join(dir, 'missing.wasm') }), 'LOAD_FAILED', /cannot read plugin/);
  });

  it('requires a pin for URLs', async () => {
    await rejects(loadPlugin({ url: 'https://example.com/x.wasm' } as never), 'INVALID_OPTIONS', /needs a sha256 pin/);
  });

  it.each([
    ['bytes that are not wasm', new TextEncoder().encode('<!DOCTYPE html>'), 'INVALID_WASM', /not a WebAssembly module.*3c 21 44 4f/],
    ['a module without describe', cannedPlugin({ other: new Uint8Array() }), 'MISSING_EXPORT', /does not export "describe" \(it exports: .*other/],
    ['garbage describe output', cannedPlugin({ describe: new Uint8Array([0x0a, 0xff, 0xff]) }), 'BAD_OUTPUT', /describe output is not valid protobuf/],
    ['an unknown protocol major', cannedPlugin({ describe: info({ protocolVersion: 7 }) }), 'PROTOCOL_MISMATCH', /speaks protocol v7/],
    [
      'bindings without a hook export',
      cannedPlugin({ describe: info({ hooks: [{ event: v1.HookEvent.HOOK_EVENT_STOP }] }) }),
      'MISSING_EXPORT',
      /declares hooks but does not export "hook"/,
    ],
  ])('refuses %s with a typed error naming the plugin', async (_, bytes, code, message) => {
    await rejects(loadPlugin({ bytes }), code, message);
  });

  it('refuses a plugin that asks for more than it was granted, listing the difference', async () => {
    const bytes = cannedPlugin({
      describe: info({ grants: { networkHosts: ['api.example.com'], configKeys: ['mode', 'token'] } }),
    });
    await rejects(
      loadPlugin({ bytes }, { grants: { configKeys: ['mode'] } }),
      'GRANT_DENIED',
      /network host "api.example.com", config key "token"/,
    );
    // The wildcard covers the host, so only the sandbox's own refusal remains: it cannot do network yet.
    await rejects(
      loadPlugin({ bytes }, { grants: { networkHosts: ['*.example.com'], configKeys: ['mode', 'token'] } }),
      'INVALID_OPTIONS',
      /network grants are not supported/,
    );
    const configOnly = cannedPlugin({ describe: info({ grants: { configKeys: ['mode'] } }) });
    const plugin = await loadPlugin({ bytes: configOnly }, { grants: { configKeys: ['mode'] }, config: { mode: 'strict', secret: 'x' } });
    expect(plugin.info.grants.configKeys).toEqual(['mode']);
    await plugin.close();
  });

  it('turns a bad hook answer into a failure, not a decision', async () => {
    const bytes = cannedPlugin({
      describe: info({ hooks: [{ event: v1.HookEvent.HOOK_EVENT_PRE_TOOL_USE }] }),
      hook: new Uint8Array([0x08, 0x63]), // decision 99
    });
    const plugin = await loadPlugin({ bytes });
    const result = await plugin.callHook(preToolUse);
    expect(result).toMatchObject({ ok: false, failure: { code: 'BAD_OUTPUT', message: /unknown decision 99/ } });
    await plugin.close();
  });

  it('rejects invalid options with the field path', async () => {
    await rejects(
      loadPlugin({ bytes: cannedPlugin({ describe: info() }) }, { limits: { timeoutMs: -1 } }),
      'INVALID_OPTIONS',
      /limits\.timeoutMs/,
    );
  });
});
