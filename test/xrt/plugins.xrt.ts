// The walking skeleton on every runtime: the built guard-shell.wasm, loaded
// through the built ESM, denies `rm -rf /` and allows `ls -la`; bad plugins
// give typed errors; a plugin's load options get one verdict from wasmhooks.json and loadPlugin, and its limits
// one from those and createSandbox and createRawSandbox (which alone take Infinity for timeoutMs and fuel).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createHost, createRawSandbox, createSandbox, loadPlugin, parseConfig, scriptedModel, WasmhooksError } from '../../dist/index.js';
import type { HookInput, HostEvent } from '../../dist/index.js';
import { pluginOptionProblems, type PluginOptionApi } from '../plugins/plugin-option-cases.ts';
import { limitProblems, type LimitApi } from '../sandbox/limit-cases.ts';
import { fakeBash } from './tools.ts';

const guardPath = new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url);

const bash = (command: string): HookInput => ({
  hook_event_name: 'PreToolUse',
  session_id: 'xrt',
  cwd: '/tmp',
  turn: 1,
  iteration: 1,
  permission_mode: 'default',
  tool_name: 'Bash',
  tool_input: { command },
  tool_use_id: 'toolu_1',
});

async function expectError(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (e: unknown) => e instanceof WasmhooksError && e.code === code);
}

export const scenarios: Record<string, () => Promise<void>> = {
  'guard-shell denies rm -rf / (with a reason) and allows ls -la': async () => {
    const guard = await loadPlugin({ bytes: new Uint8Array(await readFile(guardPath)) });
    try {
      const denied = await guard.callHook(bash('rm -rf /'));
      assert.ok(denied.ok && denied.output.decision === 'deny', JSON.stringify(denied));
      assert.match(denied.output.reason ?? '', /guard-shell/);
      const allowed = await guard.callHook(bash('ls -la'));
      assert.ok(allowed.ok && allowed.output.decision === 'allow', JSON.stringify(allowed));
      // Commands the shell spells at run time: refused, whatever they would spell.
      for (const [command, rule] of [["$'\\x72m' -rf /", 'ansi-c-escape'], ['{rm,-rf,/}', 'brace-expansion']]) {
        const hidden = await guard.callHook(bash(command!));
        assert.ok(hidden.ok && hidden.output.decision === 'deny' && hidden.output.reason?.includes(rule!), JSON.stringify(hidden));
      }
    } finally {
      await guard.close();
    }
  },

  'an agent run with the WASM guard never runs the denied call': async () => {
    const guard = await loadPlugin({ bytes: new Uint8Array(await readFile(guardPath)) });
    const ran: string[] = [];
    const host = createHost({
      plugins: [guard],
      permissionMode: 'bypassPermissions',
      model: scriptedModel({
        turns: [{ toolCalls: [{ name: 'Bash', input: { command: 'rm -rf /' } }, { name: 'Bash', input: { command: 'ls' } }] }, { text: 'Done.' }],
      }),
      tools: [fakeBash(() => 'ok', ran)],
    });
    const events: HostEvent[] = [];
    for await (const event of host.session().stream('clean up')) events.push(event);
    await guard.close();
    assert.deepEqual(ran, ['ls']);
    assert.ok(events.some((e) => e.type === 'tool.denied' && e.name === 'Bash'));
    const end = events.at(-1);
    assert.ok(end?.type === 'agent.end' && end.result.subtype === 'success', JSON.stringify(end));
  },

  'bytes that are not wasm and a module without exports give typed errors': async () => {
    await expectError(loadPlugin({ bytes: new TextEncoder().encode('not wasm') }), 'INVALID_WASM');
    const empty = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    await expectError(loadPlugin({ bytes: empty }), 'MISSING_EXPORT');
  },

  'a plugin\'s options (grants, wasi, failurePolicy, isolation, config, pluginName, allowExceptions): one verdict and one message from wasmhooks.json and loadPlugin': async () => {
    const vowels = new Uint8Array(await readFile(new URL('../fixtures/extism-vowels/build/extism-vowels.wasm', import.meta.url)));
    const dir = fileURLToPath(new URL('../fixtures/', import.meta.url));
    // dist/'s classes are other types than host/'s to the compiler (private fields), the same code at run time.
    const api = { parseConfig, loadPlugin, vowels, dir } as unknown as PluginOptionApi;
    assert.deepEqual(await pluginOptionProblems(api), []);
  },

  'a plugin\'s limits: one verdict and one line from createSandbox, createRawSandbox, loadPlugin and wasmhooks.json (Infinity for timeoutMs and fuel: the sandbox API only)': async () => {
    const vowels = new Uint8Array(await readFile(new URL('../fixtures/extism-vowels/build/extism-vowels.wasm', import.meta.url)));
    const dir = fileURLToPath(new URL('../fixtures/', import.meta.url));
    const api = { parseConfig, loadPlugin, createSandbox, createRawSandbox, vowels, dir } as unknown as LimitApi;
    assert.deepEqual(await limitProblems(api), []);
  },
};
