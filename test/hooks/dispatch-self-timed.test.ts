// Handlers that enforce their own timeout (sandboxed WASM): dispatch passes the prompt's
// signal through, sets no timer of its own, and maps failures as the timed path does.
import { readFile } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { dispatch } from '../../host/hooks/dispatch.js';
import { HookRegistry } from '../../host/hooks/registry.js';
import type { EmittedEvent } from '../../host/events/types.js';
import type { HookHandler, HookInputOf, HookResult, HookRunContext } from '../../host/hooks/types.js';
import { loadPlugin } from '../../host/plugins/index.js';

const pre: HookInputOf<'PreToolUse'> = {
  session_id: 's', cwd: '/proj', turn: 1, iteration: 1, permission_mode: 'default',
  hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1',
};

function handler(run: (ctx: HookRunContext) => Promise<HookResult>, over: Partial<HookHandler> = {}): HookHandler {
  return { id: 'w#0', name: 'w', kind: 'wasm', event: 'PreToolUse', failurePolicy: 'fail-closed', timeoutMs: 20, enforcesTimeout: true, run: (_i, ctx) => run(ctx), ...over };
}

function setup(h: HookHandler, signal = new AbortController().signal) {
  const registry = new HookRegistry();
  registry.addHandler(h);
  const events: EmittedEvent[] = [];
  return { events, go: () => dispatch({ registry, emit: (e) => events.push(e), signal }, 'PreToolUse', () => pre) };
}

describe('self-timed handlers', () => {
  it('get the prompt signal itself, not a child of it', async () => {
    const prompt = new AbortController();
    let seen: AbortSignal | undefined;
    const { go } = setup(handler(async (ctx) => ((seen = ctx.signal), { ok: true, output: { decision: 'allow' } })), prompt.signal);
    expect((await go()).decision).toBe('allow');
    expect(seen).toBe(prompt.signal);
  });

  it('are not cut off by a dispatcher timer: their own deadline decides', async () => {
    vi.useFakeTimers();
    try {
      let finish!: (r: HookResult) => void;
      const { go } = setup(handler(() => new Promise((r) => (finish = r))));
      const out = go();
      await vi.advanceTimersByTimeAsync(100); // five times timeoutMs: a dispatcher timer would have fired
      finish({ ok: true, output: { decision: 'allow' } });
      expect((await out).decision).toBe('allow');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a timed (JS) handler with the same timeout is still cut off', async () => {
    const { events, go } = setup(handler(() => new Promise(() => {}), { kind: 'js', enforcesTimeout: undefined }));
    expect((await go()).decision).toBe('deny');
    expect(events.at(-1)).toMatchObject({ type: 'hook.end', failure: { code: 'TIMEOUT' } });
  });

  it('an ABORTED answer after the prompt aborted reads as the session abort; a sync throw is a TRAP', async () => {
    const prompt = new AbortController();
    const aborted = setup(handler(async () => (prompt.abort(), { ok: false, failure: { code: 'ABORTED', message: 'the call was aborted' }, fuelUsed: 5 })), prompt.signal);
    await aborted.go();
    expect(aborted.events.at(-1)).toMatchObject({ type: 'hook.end', failure: { code: 'ABORTED', message: 'the session was aborted' } });
    expect(aborted.events.at(-1)).not.toHaveProperty('fuelUsed');

    const thrown = setup(handler(() => { throw new Error('boom'); }));
    expect((await thrown.go()).decision).toBe('deny');
    expect(thrown.events.at(-1)).toMatchObject({ failure: { code: 'TRAP', message: 'hook threw: boom' } });
  });

  it('WasmPlugin hooks are self-timed and answer through the direct encoder', async () => {
    const bytes = new Uint8Array(await readFile(new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url)));
    const plugin = await loadPlugin({ bytes }, { limits: { timeoutMs: 1_000 } });
    try {
      const [h] = plugin.hooks();
      expect(h?.enforcesTimeout).toBe(true);
      const { go } = setup(h!);
      expect((await go()).decision).toBe('allow');
      const registry = new HookRegistry();
      registry.addHandler(h!);
      const rm = await dispatch({ registry, emit: () => {}, signal: new AbortController().signal }, 'PreToolUse', () => ({ ...pre, tool_input: { command: 'rm -rf /' } }));
      expect(rm.decision).toBe('deny');
    } finally {
      await plugin.close();
    }
  });
});
