/**
 * Row group 5: what the agent loop adds per iteration (one scripted model
 * turn + one tool call), with no hooks, with a no-op JS hook on PreToolUse
 * and PostToolUse, and with five WASM hooks (five guard-shell instances,
 * in-thread) on every event the loop fires.
 * Anchor: the same scripted turn streamed from the same model and the same
 * tool validated and run by hand, no loop around it.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { HOOK_EVENT_NAMES, createHost, loadPlugin, scriptedModel, tool, type HookHandler } from '../../host/index.js';
import { compare, runtimeName } from '../harness.js';
import { PER_PROMPT, TOOL_TURN } from './bus.js';
import { makeRow, type RowsFn } from './row.js';

const echo = tool('Echo', 'Echo text', z.object({ text: z.string() }), ({ text }) => text);

export const run: RowsFn = async ({ quick }) => {
  const runtime = runtimeName();
  const bytes = new Uint8Array(await readFile(new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url)));
  const plugins = await Promise.all(Array.from({ length: 5 }, () => loadPlugin({ bytes }, { limits: { timeoutMs: 1_000 } })));
  const events = HOOK_EVENT_NAMES;
  let hookCalls = 0;
  const handlers: HookHandler[] = plugins.flatMap((p, i) =>
    events.map((event) => ({
      id: `bench-${i}-${event}`,
      name: `guard-shell#${i}`,
      kind: 'wasm' as const,
      event,
      plugin: p.name,
      failurePolicy: 'fail-open' as const,
      timeoutMs: 1_000,
      run: (input, ctx) => (hookCalls++, p.callHook(input, { signal: ctx.signal })),
    })),
  );

  const noop = async () => ({});
  const prompter = (hooks: 'none' | 'js' | 'wasm') => {
    const model = scriptedModel({ rules: [{ when: () => true, reply: TOOL_TURN }] });
    const host = createHost({
      model,
      tools: [echo],
      permissionMode: 'bypassPermissions',
      maxTurns: PER_PROMPT,
      ...(hooks === 'js' ? { hooks: { PreToolUse: [{ hooks: [noop] }], PostToolUse: [{ hooks: [noop] }] } } : {}),
    });
    if (hooks === 'wasm') for (const h of handlers) host.hooks.addHandler(h);
    return async () => {
      model.requests.length = 0;
      const result = await host.session().prompt('go');
      if (result.subtype !== 'error_max_turns') throw new Error(`bench loop: unexpected result ${result.subtype}`);
    };
  };
  const anchorModel = scriptedModel({ rules: [{ when: () => true, reply: TOOL_TURN }] });
  const signal = new AbortController().signal;
  const context = { session_id: 's', cwd: '/', turn: 1, iteration: 1, permission_mode: 'default' as const };
  const anchor = async () => {
    anchorModel.requests.length = 0;
    for (let i = 0; i < PER_PROMPT; i++) {
      for await (const ev of anchorModel.stream({ messages: [{ role: 'user', content: 'go' }], tools: [], signal })) {
        if (ev.type !== 'tool.call') continue;
        const checked = echo.validate?.(ev.input);
        if (checked?.ok) await echo.run(checked.value, { signal, toolUseId: ev.id, onProgress: () => {}, context });
      }
    }
  };

  const hooked = prompter('wasm');
  await hooked();
  const callsPerPrompt = hookCalls;
  const r = await compare(
    { anchor, loop: prompter('none'), jsHooked: prompter('js'), hooked },
    { samples: quick ? 20 : 100, warmup: 5, maxMs: quick ? 3_000 : 15_000, rounds: 10, clock: 'cpu' },
  );
  await Promise.all(plugins.map((p) => p.close()));
  const batch = await parallelBatch(quick);
  const iter = (s: { median: number; p99: number }) => ({ value: s.median / PER_PROMPT, unit: 'µs', p99: s.p99 / PER_PROMPT, clock: 'cpu' as const });
  const perHook = (r.hooked.median - r.loop.median) / callsPerPrompt;
  return [
    makeRow('loop', runtime, {
      what: 'loop iteration (model turn + 1 tool), no hooks',
      ours: iter(r.loop),
      anchorName: 'same turn streamed + tool run by hand',
      anchor: iter(r.anchor),
      note: `loop overhead per iteration ≈ ${((r.loop.median - r.anchor.median) / PER_PROMPT).toFixed(1)} µs (median difference)`,
    }),
    makeRow('loop', runtime, {
      what: 'loop iteration, a no-op JS hook on PreToolUse and PostToolUse',
      ours: iter(r.jsHooked),
      anchorName: 'loop, no hooks',
      anchor: iter(r.loop),
      note: `≈ ${((r.jsHooked.median - r.loop.median) / PER_PROMPT / 2).toFixed(1)} µs per JS hook call (timeout, abort, input copy, output validation, its events)`,
    }),
    makeRow('loop', runtime, {
      what: `loop iteration, 5 WASM hooks on every event (${(callsPerPrompt / PER_PROMPT).toFixed(0)} hook calls/iteration)`,
      ours: iter(r.hooked),
      anchorName: 'loop, no hooks',
      anchor: iter(r.loop),
      note: `≈ ${perHook.toFixed(1)} µs per hook call inside the loop (dispatch + sandboxed call); events hooked: ${events.join(', ')}`,
    }),
    makeRow('loop', runtime, {
      what: 'a batch of 3 × 200 ms read-only tools, through the loop',
      ours: { value: batch.loop.median, unit: 'ms', p99: batch.loop.p99 },
      anchorName: 'the 3 tools awaited together by hand (Promise.all)',
      anchor: { value: batch.anchor.median, unit: 'ms', p99: batch.anchor.p99 },
      target: { op: 'max', value: 1.1 },
      note: `one at a time (maxParallelTools: 1) takes ${batch.sequential.median.toFixed(0)} ms`,
    }),
  ];
};

/** Wall time of one prompt whose model asks for 3 read-only 200 ms calls at once. */
async function parallelBatch(quick: boolean) {
  const nap = tool('Nap', 'sleeps', z.object({ ms: z.number() }), async ({ ms }) => (await new Promise((r) => setTimeout(r, ms)), 'ok'), { readOnly: true });
  const turn = { toolCalls: [0, 1, 2].map(() => ({ name: 'Nap', input: { ms: 200 } })) };
  const prompt = (maxParallelTools: number) => async () => {
    const model = scriptedModel([turn, { text: 'done' }]);
    await createHost({ model, tools: [nap], permissionMode: 'bypassPermissions', maxParallelTools }).session().prompt('go');
  };
  const signal = new AbortController().signal;
  const context = { session_id: 's', cwd: '/', turn: 1, iteration: 1, permission_mode: 'default' as const };
  const anchor = async () => {
    await Promise.all([0, 1, 2].map((i) => nap.run({ ms: 200 }, { signal, toolUseId: `t${i}`, onProgress: () => {}, context })));
  };
  const n = quick ? 3 : 6;
  const ms = (s: { median: number; p99: number }) => ({ median: s.median / 1000, p99: s.p99 / 1000 });
  const r = await compare({ anchor, loop: prompt(8), sequential: prompt(1) }, { samples: n, warmup: 1, maxMs: 60_000, rounds: n });
  return { anchor: ms(r.anchor), loop: ms(r.loop), sequential: ms(r.sequential) };
}
