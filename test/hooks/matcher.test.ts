// One matcher, one meaning: JS hooks, shell hooks, WASM bindings and permission
// rules accept exactly the same tool names for the same pattern, and a hostile
// pattern costs the host linear time.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WasmhooksError } from '../../host/errors.js';
import { createHost } from '../../host/host.js';
import { jsHookHandlers } from '../../host/hooks/js.js';
import { MAX_MATCHER_LENGTH, parseToolMatcher } from '../../host/hooks/matcher.js';
import type { HookHandler } from '../../host/hooks/types.js';
import { loadPlugin } from '../../host/plugins/index.js';
import { encodePluginInfo } from '../../host/protocol/pb-codec.js';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { createShellHook } from '../../host/shell/hook.js';
import { tool } from '../../host/tools/define.js';
import { cannedPlugin } from '../fixtures/canned.js';

const v1 = wasmhooks.v1;
const NAMES = ['Bash', 'BashX', 'xBash', 'Write', 'Edit', 'mcp__gh__issue', 'Notebook', 'Read', 'a'.repeat(40)];

/** pattern → the names of NAMES it must accept. */
const TABLE: Array<[string | undefined, string[]]> = [
  [undefined, NAMES],
  ['', NAMES],
  ['*', NAMES],
  ['Bash', ['Bash']],
  ['Write|Edit', ['Write', 'Edit']],
  ['^(Write|Edit)$', ['Write', 'Edit']],
  ['mcp__.*', ['mcp__gh__issue']],
  ['Note.*|Read', ['Notebook', 'Read']],
  ['.*Bash', ['Bash', 'xBash']],
  ['(a+)+b', []],
  ['(a+)+', ['a'.repeat(40)]],
  ['(a{1,5})+b', []],
  ['(a|aa)+', ['a'.repeat(40)]],
];

async function wasmBinding(pattern: string | undefined): Promise<{ handler: HookHandler; close: () => Promise<void> }> {
  const describe = encodePluginInfo({
    name: 'm',
    version: '1',
    protocolVersion: 1,
    hooks: [{ event: v1.HookEvent.HOOK_EVENT_PRE_TOOL_USE, ...(pattern === undefined ? {} : { matcher: pattern }) }],
  });
  const plugin = await loadPlugin({ bytes: cannedPlugin({ describe, hook: new Uint8Array() }) });
  return { handler: plugin.hooks()[0]!, close: () => plugin.close() };
}

const accepted = (h: Pick<HookHandler, 'matcher'>) => NAMES.filter((n) => !h.matcher || h.matcher.test(n));

describe('one meaning of a matcher for every hook kind', () => {
  it.each(TABLE)('%j accepts the same tools for JS, shell and WASM hooks and permission rules', async (pattern, expected) => {
    const js = jsHookHandlers('PreToolUse', { ...(pattern === undefined ? {} : { matcher: pattern }), hooks: [async () => ({})] })[0]!;
    const shell = createShellHook({ event: 'PreToolUse', command: 'true', ...(pattern === undefined ? {} : { matcher: pattern }) });
    const wasm = await wasmBinding(pattern);
    try {
      expect(accepted(js)).toEqual(expected);
      expect(accepted(shell)).toEqual(expected);
      expect(accepted(wasm.handler)).toEqual(expected);
    } finally {
      await wasm.close();
    }
    if (pattern !== undefined) {
      const parsed = parseToolMatcher(pattern);
      expect(parsed.ok).toBe(true);
      if (parsed.ok) expect(NAMES.filter((n) => !parsed.matcher || parsed.matcher.test(n))).toEqual(expected);
    }
  });

  it('keeps a RegExp\'s i flag (trusted JS configuration) and refuses what RE2 cannot run in linear time', () => {
    const [ci] = jsHookHandlers('PreToolUse', { matcher: /bash/i, hooks: [async () => ({})] });
    expect(['Bash', 'BASH', 'Bashful'].map((n) => ci!.matcher!.test(n))).toEqual([true, true, false]);
    for (const [bad, why] of [
      [/(a)\1/, /not a valid regular expression \(RE2 syntax: no backreferences or lookaround\)/],
      ['(?=Bash)Bash', /not a valid regular expression/],
      ['.{1000}', /too large with its counted repetitions \(\{n\}, \{n,m\}\): length × counts = 7000, the limit is 1024/],
      ['x'.repeat(MAX_MATCHER_LENGTH + 1), /257 characters long; the limit is 256/],
    ] as const) {
      const error = (() => {
        try {
          jsHookHandlers('PreToolUse', { matcher: bad, hooks: [async () => ({})] });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(WasmhooksError);
      expect((error as WasmhooksError).code).toBe('INVALID_OPTIONS');
      expect((error as WasmhooksError).message).toMatch(/^hooks\.PreToolUse: matcher /);
      expect((error as WasmhooksError).message).toMatch(why);
    }
    expect(() => createShellHook({ event: 'PreToolUse', command: 'x', matcher: '(a{10}){200}' })).toThrow(/counted repetitions/);
    // Small counts are fine, and mean what they mean in any regex.
    const [twice] = jsHookHandlers('PreToolUse', { matcher: 'Bash{2}', hooks: [async () => ({})] });
    expect(['Bash', 'Bashh'].map((n) => twice!.matcher!.test(n))).toEqual([false, true]);
  });

  it.each([
    [['*'], 'tool.output'],
    [['Ech.*'], 'tool.output'],
    [['Ech'], 'tool.denied'],
  ])('permission rules use the same matcher: allowedTools %j', async (allowedTools, outcome) => {
    const echo = tool('Echo', 'Echo', z.object({ text: z.string() }), ({ text }) => text);
    const model = scriptedModel([{ toolCalls: [{ name: 'Echo', input: { text: 'hi' } }] }, { text: 'done' }]);
    const session = createHost({ model, tools: [echo], allowedTools, permissionMode: 'dontAsk' }).session();
    const seen: string[] = [];
    session.subscribe((e) => void ((e.type === 'tool.output' || e.type === 'tool.denied') && seen.push(e.type)));
    await session.prompt('x');
    expect(seen).toEqual([outcome]);
  });

  it('refuses an invalid permission rule naming it', () => {
    expect(() => createHost({ allowedTools: ['(a)\\1'] })).toThrow(/allowedTools\[0\]: matcher "\(a\)\\\\1" is not a valid regular expression/);
  });
});

describe('a plugin matcher the host cannot run refuses the plugin at load', () => {
  it.each([
    ['(a)\\1', /backreferences/],
    ['(?<=a)b', /not a valid regular expression/],
    ['.{1000}', /counted repetition/],
    ['x'.repeat(300), /300 characters long; the limit is 256/],
  ])('%j: BAD_OUTPUT naming the binding', async (matcher, why) => {
    const describe = encodePluginInfo({
      name: 'bad',
      version: '1',
      protocolVersion: 1,
      hooks: [{ event: v1.HookEvent.HOOK_EVENT_STOP }, { event: v1.HookEvent.HOOK_EVENT_PRE_TOOL_USE, matcher }],
    });
    const error = await loadPlugin({ bytes: cannedPlugin({ describe, hook: new Uint8Array() }) }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(WasmhooksError);
    expect((error as WasmhooksError).code).toBe('BAD_OUTPUT');
    expect((error as WasmhooksError).message).toMatch(/hooks\[1\] \(PreToolUse\) has an invalid matcher: /);
    expect((error as WasmhooksError).message).toMatch(why);
  });
});

describe('a hostile matcher costs linear time', () => {
  it('(a+)+b against long tool names answers in milliseconds', () => {
    const parsed = parseToolMatcher('(a+)+b');
    if (!parsed.ok || !parsed.matcher) throw new Error('expected a matcher');
    const started = performance.now();
    for (const n of [26, 40, 64, 10_000, 100_000]) expect(parsed.matcher.test('a'.repeat(n))).toBe(false);
    for (const pattern of ['(a|aa)+b', '(a{1,5})+b', '((a*)*)*b', '(.*a){12}b', '(\\w+\\s?)+x']) {
      const other = parseToolMatcher(pattern);
      if (!other.ok || !other.matcher) throw new Error(`expected ${pattern} to compile`);
      for (const n of [40, 10_000]) expect(other.matcher.test('a'.repeat(n))).toBe(false);
    }
    // The backtracking engine needs hours for 40 characters; RE2 needs well under a millisecond per name.
    expect(performance.now() - started).toBeLessThan(500);
  });

  it.each(['in-thread', 'worker'] as const)('a plugin binding (a+)+b on a 40-character tool name in an agent run (%s)', async (isolation) => {
    const name = 'a'.repeat(40);
    const describe = encodePluginInfo({
      name: 'redos',
      version: '1',
      protocolVersion: 1,
      hooks: [{ event: v1.HookEvent.HOOK_EVENT_PRE_TOOL_USE, matcher: '(a+)+b' }, { event: v1.HookEvent.HOOK_EVENT_POST_TOOL_USE, matcher: '(a+)+' }],
    });
    const plugin = await loadPlugin({ bytes: cannedPlugin({ describe, hook: new Uint8Array() }) }, { isolation });
    try {
      const model = scriptedModel([{ toolCalls: [{ name, input: {} }] }, { text: 'done' }]);
      const h = createHost({ model, plugins: [plugin], permissionMode: 'bypassPermissions', tools: [tool(name, 'a tool', z.object({}), () => 'ran')] });
      const ends: string[] = [];
      const session = h.session();
      session.subscribe((e) => void (e.type === 'hook.end' && ends.push(`${e.event}:${e.decision}`)));
      const started = performance.now();
      const result = await session.prompt('go');
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(result.subtype).toBe('success');
      // PreToolUse's (a+)+b does not match; PostToolUse's (a+)+ does, and its plugin is called.
      expect(ends).toEqual(['PostToolUse:continue']);
    } finally {
      await plugin.close();
    }
  });
});
