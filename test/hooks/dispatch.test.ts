// The hook chain: order, deny ends it, rewrites feed the next hook, failures go through the policy.
import { describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { dispatch } from '../../host/hooks/dispatch.js';
import { HookRegistry } from '../../host/hooks/registry.js';
import type { EmittedEvent } from '../../host/events/types.js';
import type { HookHandler, HookInput, HookInputOf } from '../../host/hooks/types.js';

const common = { session_id: 's', cwd: '/proj', turn: 1, iteration: 1, permission_mode: 'default' as const };
const pre = (tool_input: Record<string, unknown> = { file_path: '/proj/a' }, tool_name = 'Read'): HookInputOf<'PreToolUse'> => ({
  ...common,
  hook_event_name: 'PreToolUse',
  tool_name,
  tool_input,
  tool_use_id: 't1',
});

/** Calls dispatch with an input built up front (the loop builds it lazily). */
const run = (ctx: Parameters<typeof dispatch>[0], input: HookInput) =>
  dispatch(ctx, input.hook_event_name, () => input as never);

function setup() {
  const registry = new HookRegistry();
  const events: EmittedEvent[] = [];
  const ctx = { registry, emit: (e: EmittedEvent) => events.push(e), signal: new AbortController().signal };
  const ends = () => events.filter((e) => e.type === 'hook.end');
  return { registry, events, ctx, ends };
}

describe('hook chain', () => {
  it('runs in registration order; a deny ends the chain', async () => {
    const { registry, ctx } = setup();
    const seen: string[] = [];
    registry.add('PreToolUse', { hooks: [async () => (seen.push('a'), {})] });
    registry.add('PreToolUse', { hooks: [async () => (seen.push('b'), { decision: 'deny', reason: 'no' })] });
    registry.add('PreToolUse', { hooks: [async () => (seen.push('c'), {})] });
    const out = await run(ctx, pre());
    expect(seen).toEqual(['a', 'b']);
    expect(out).toMatchObject({ decision: 'deny', reason: 'no', decidedBy: { hookName: 'js#0' } });
  });

  it('on PostToolUse a stop ends the turn, not the chain: later hooks still rewrite the output (red42)', async () => {
    const { registry, ctx } = setup();
    const seen: unknown[] = [];
    registry.add('PostToolUse', { name: 'stopper', hooks: [async () => ({ continue: false, stopReason: 'enough' })] });
    registry.add('PostToolUse', { name: 'redactor', hooks: [async (i) => (seen.push((i as HookInputOf<'PostToolUse'>).tool_response), { updatedOutput: 'key=[REDACTED]' })] });
    registry.add('PostToolUse', { name: 'later', hooks: [async (i) => (seen.push((i as HookInputOf<'PostToolUse'>).tool_response), { decision: 'stop', reason: 'me too' })] });
    const post: HookInputOf<'PostToolUse'> = { ...common, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: {}, tool_use_id: 't1', tool_response: 'key=sk-secret' };
    const out = await run(ctx, post);
    expect(seen).toEqual(['key=sk-secret', 'key=[REDACTED]']);
    // The first stop decides (stoppedBy names it); the output is the last rewrite.
    expect(out).toMatchObject({ decision: 'stop', reason: 'enough', decidedBy: { hookName: 'stopper#0' }, updatedOutput: 'key=[REDACTED]' });
  });

  it('a rewritten input is what the next hook sees (paths normalised)', async () => {
    const { registry, ctx } = setup();
    const inputs: unknown[] = [];
    registry.add('PreToolUse', { hooks: [async () => ({ updatedInput: { file_path: 'b.txt' } })] });
    registry.add('PreToolUse', {
      hooks: [async (i) => (inputs.push((i as HookInputOf<'PreToolUse'>).tool_input), { updatedInput: { file_path: '/x/c' } })],
    });
    const out = await run({ ...ctx, normalizeInput: (i) => ({ ...i, file_path: `/proj/${String(i.file_path)}`.replace('/proj//', '/') }) }, pre());
    expect(inputs).toEqual([{ file_path: '/proj/b.txt' }]);
    expect(out.updatedInput).toEqual({ file_path: '/x/c' });
  });

  it('gathers additionalContext from every hook and the most restrictive decision wins', async () => {
    const { registry, ctx } = setup();
    registry.add('PreToolUse', { hooks: [async () => ({ decision: 'allow', additionalContext: 'one' })] });
    registry.add('PreToolUse', { hooks: [async () => ({ decision: 'ask', additionalContext: 'two' })] });
    registry.add('PreToolUse', { hooks: [async () => ({ decision: 'allow' })] });
    const out = await run(ctx, pre());
    expect(out.decision).toBe('ask');
    expect(out.additionalContext.map((c) => c.text)).toEqual(['one', 'two']);
  });

  it('a hook that mutates its input does not change what others see', async () => {
    const { registry, ctx } = setup();
    registry.add('PreToolUse', { hooks: [async (i) => (((i as HookInputOf<'PreToolUse'>).tool_input.file_path = '/etc/passwd'), {})] });
    const input = pre();
    const out = await run(ctx, input);
    expect(out.updatedInput).toBeUndefined();
    expect(input.tool_input).toEqual({ file_path: '/proj/a' });
  });

  it('matchers are anchored regexes on the tool name', async () => {
    const { registry, ctx } = setup();
    const seen: string[] = [];
    registry.add('PreToolUse', { matcher: 'Read|Write', hooks: [async (i) => (seen.push((i as HookInputOf<'PreToolUse'>).tool_name), {})] });
    await run(ctx, pre({}, 'Read'));
    await run(ctx, pre({}, 'ReadMore'));
    await run(ctx, pre({}, 'Write'));
    expect(seen).toEqual(['Read', 'Write']);
  });

  it('remove(id) unregisters', async () => {
    const { registry, ctx } = setup();
    const [id] = registry.add('PreToolUse', { hooks: [async () => ({ decision: 'deny' })] });
    expect(registry.remove(id as string)).toBe(true);
    expect(registry.remove(id as string)).toBe(false);
    expect((await run(ctx, pre())).decision).toBe('continue');
  });
});

describe('failures are data, turned into decisions by the policy', () => {
  it('a guard that times out denies (fail-closed), names the hook and code, and its signal fires', async () => {
    const { registry, ctx, ends } = setup();
    let aborted = false;
    registry.add('PreToolUse', {
      name: 'slow',
      timeoutMs: 20,
      hooks: [(_i, _id, { signal }) => new Promise(() => signal.addEventListener('abort', () => (aborted = true)))],
    });
    const out = await run(ctx, pre());
    expect(aborted).toBe(true);
    expect(out.decision).toBe('deny');
    expect(out.reason).toMatch(/hook "slow#0" failed \(TIMEOUT\)/);
    expect(ends()[0]).toMatchObject({ decision: 'deny', failure: { code: 'TIMEOUT' }, failurePolicy: 'fail-closed' });
  });

  it('a throwing guard denies; fail-open makes it continue; both visible in hook.end', async () => {
    const { registry, ctx, ends } = setup();
    registry.add('PreToolUse', { hooks: [async () => { throw new Error('boom'); }] });
    expect((await run(ctx, pre())).decision).toBe('deny');
    registry.list().forEach((h) => registry.remove(h.id));
    registry.add('PreToolUse', { failurePolicy: 'fail-open', hooks: [async () => { throw new Error('boom'); }] });
    expect((await run(ctx, pre())).decision).toBe('continue');
    expect(ends().map((e) => e.type === 'hook.end' && [e.decision, e.failure?.code, e.failure?.message])).toEqual([
      ['deny', 'TRAP', 'hook threw: boom'],
      ['continue', 'TRAP', 'hook threw: boom'],
    ]);
  });

  it('garbage output is BAD_OUTPUT', async () => {
    const { registry, ctx, ends } = setup();
    registry.add('PreToolUse', { hooks: [async () => ({ decision: 'maybe' }) as never] });
    expect((await run(ctx, pre())).decision).toBe('deny');
    expect(ends()[0]).toMatchObject({ failure: { code: 'BAD_OUTPUT' } });
  });

  it('a deny on an observe-only event is a protocol violation (fail-open there: continue)', async () => {
    const { registry, ctx, ends } = setup();
    registry.add('PostToolBatch', { hooks: [async () => ({ decision: 'deny' })] });
    const out = await run(ctx, { ...common, hook_event_name: 'PostToolBatch', tool_calls: [] });
    expect(out.decision).toBe('continue');
    expect(ends()[0]).toMatchObject({ decision: 'continue', failure: { code: 'BAD_OUTPUT', message: expect.stringMatching(/not legal for PostToolBatch/) } });
  });

  it('updatedInput on an event that has no input is a violation', async () => {
    const { registry, ctx, ends } = setup();
    registry.add('UserPromptSubmit', { hooks: [async () => ({ updatedInput: { a: 1 } })] });
    const out = await run(ctx, { ...common, hook_event_name: 'UserPromptSubmit', prompt: 'x' });
    expect(out.decision).toBe('deny'); // UserPromptSubmit is a guard: fail-closed
    expect(ends()[0]).toMatchObject({ failure: { code: 'BAD_OUTPUT' } });
  });

  it('a handler whose run throws despite the contract is caught (TRAP); WASM fuel is reported', async () => {
    const { registry, ctx, ends } = setup();
    const h: HookHandler = {
      id: 'w1', name: 'guard', kind: 'wasm', plugin: 'guard', event: 'PreToolUse', failurePolicy: 'fail-closed', timeoutMs: 100,
      run: async () => { throw new Error('contract broken'); },
    };
    const ok: HookHandler = { ...h, id: 'w2', failurePolicy: 'fail-open', run: async () => ({ ok: true, output: { decision: 'allow' }, fuelUsed: 1234 }) };
    registry.addHandler(ok);
    registry.addHandler(h);
    const out = await run(ctx, pre());
    expect(out.decision).toBe('deny');
    expect(ends()).toMatchObject([
      { kind: 'wasm', plugin: 'guard', decision: 'allow', fuelUsed: 1234 },
      { kind: 'wasm', decision: 'deny', failure: { code: 'TRAP' } },
    ]);
  });

  it('an aborted prompt aborts the running hook and stops the chain', async () => {
    const { registry, ctx } = setup();
    const controller = new AbortController();
    let hookSignal: AbortSignal | undefined;
    let second = false;
    registry.add('PreToolUse', { hooks: [(_i, _id, { signal }) => ((hookSignal = signal), setTimeout(() => controller.abort(), 5), new Promise(() => {}))] });
    registry.add('PreToolUse', { hooks: [async () => ((second = true), {})] });
    await run({ ...ctx, signal: controller.signal }, pre());
    expect(hookSignal?.aborted).toBe(true);
    expect(second).toBe(false);
  });
});

describe('registration', () => {
  it('an unknown event is an error, not silence', () => {
    const registry = new HookRegistry();
    expect(() => registry.add('SubagentBegin' as never, { hooks: [async () => ({})] })).toThrowError(
      expect.objectContaining({ code: 'UNKNOWN_HOOK_EVENT' }),
    );
    expect(() => registry.add('PreToolUze' as never, { hooks: [async () => ({})] })).toThrow(WasmhooksError);
    expect(() => registry.addConfig({ Bogus: [{ hooks: [async () => ({})] }] } as never)).toThrowError(/not a hook event/);
  });

  it('validates handlers', () => {
    const registry = new HookRegistry();
    const base: HookHandler = { id: 'x', name: 'x', kind: 'wasm', event: 'Stop', failurePolicy: 'fail-open', timeoutMs: 0, run: async () => ({ ok: true, output: {} }) };
    expect(() => registry.addHandler(base)).toThrowError(/timeoutMs/);
    registry.addHandler({ ...base, timeoutMs: 5 });
    expect(() => registry.addHandler({ ...base, timeoutMs: 5 })).toThrowError(/already registered/);
    expect(() => registry.add('PreToolUse', { matcher: '(', hooks: [async () => ({})] })).toThrowError(/hooks.PreToolUse: matcher "\(" is not a valid regular expression/);
  });
});

// Keeps the HookInput import honest: a Stop input must carry stop_hook_active.
const _stop: HookInput = { ...common, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: '' };
void _stop;
