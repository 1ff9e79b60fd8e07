/**
 * Row group 1: one PreToolUse guard, dispatched six ways. The WASM guard is
 * the real guard-shell plugin; the anchors call the same plugin's `hook`
 * export with the same protobuf bytes through raw Extism (in-thread, and in
 * Extism's worker mode), and an equivalent check as a shell hook.
 * Runs on Node, Deno and Bun (`run.ts --only dispatch`).
 */
import createPlugin from '@extism/extism';
import { readFile } from 'node:fs/promises';
import { createSandbox, createShellHook, HookRegistry, loadPlugin, type HookInput, type HookOutput } from '../../host/index.js';
import { dispatch } from '../../host/hooks/dispatch.js';
import { encodeHookInput } from '../../host/protocol/hook-request.js';
import { compare, runtimeName, type SampleOptions, type Stats, type Task } from '../harness.js';
import { bytesPerCall, loopParts, rawDirect, rawInstrumented } from './guard-path.js';
import { breakdown } from './guard-breakdown.js';
import { loopRows, type LoopTask } from './guard-loop.js';
import { fig, makeRow, type Row, type RowsFn } from './row.js';
import { watFixture } from './wat.js';

const GUARD = new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url);

const input: HookInput = {
  session_id: 'bench',
  cwd: '/tmp',
  turn: 1,
  iteration: 1,
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'ls -la src' },
  tool_use_id: 'toolu_1',
};

/** The same rule in plain JS: the floor. */
const jsGuard = async (i: HookInput): Promise<HookOutput> => {
  const command = 'tool_input' in i ? String(i.tool_input['command'] ?? '') : '';
  return /\brm\s+-rf\s+\/(\s|$)/.test(command) ? { decision: 'deny', reason: 'rm -rf /' } : { decision: 'allow' };
};

// The shell anchor reads the JSON on stdin and checks it, as a guard script would.
const SHELL_COMMAND = `if grep -q 'rm -rf /'; then echo 'denied' >&2; exit 2; fi; exit 0`;

function fail(message: string): never {
  throw new Error(`dispatch bench: ${message}`);
}

export const run: RowsFn = async ({ quick }) => {
  const runtime = runtimeName();
  const bytes = new Uint8Array(await readFile(GUARD));
  const limits = { timeoutMs: 1_000 };
  const ours = await loadPlugin({ bytes }, { limits });
  const worker = await loadPlugin({ bytes }, { limits, isolation: 'worker' });
  const raw = await createPlugin({ wasm: [{ data: bytes }] }, { useWasi: false });
  const request = encodeHookInput(input, 0);
  const instrumented = await rawInstrumented(bytes);
  const direct = await rawDirect(bytes);

  // Sanity: every path answers, and answers the same.
  const a = await ours.callHook(input);
  if (!a.ok || a.output.decision !== 'allow') fail(`guard-shell in-thread did not allow: ${JSON.stringify(a)}`);
  const w = await worker.callHook(input);
  if (!w.ok || w.output.decision !== 'allow') fail(`guard-shell worker did not allow: ${JSON.stringify(w)}`);
  const viaSandbox = await ours.sandbox.call('hook', request);
  const viaRaw = await raw.call('hook', request);
  if (!viaSandbox.ok || !viaRaw || viaRaw.bytes().join() !== viaSandbox.output.join()) fail('raw Extism and the sandbox answer differently');
  const viaInstrumented = await instrumented.call('hook', request);
  if (!viaInstrumented || viaInstrumented.bytes().join() !== viaRaw.bytes().join()) fail('instrumented bytes answer differently in raw Extism');
  if ((await direct(request)).join() !== viaRaw.bytes().join()) fail('raw Extism driven directly answers differently');

  const signal = new AbortController().signal;
  const emit = () => {};
  const jsRegistry = new HookRegistry();
  jsRegistry.add('PreToolUse', { matcher: 'Bash', hooks: [jsGuard] });
  const wasmRegistry = new HookRegistry();
  for (const h of ours.hooks()) wasmRegistry.addHandler(h);
  const build = () => input as Extract<HookInput, { hook_event_name: 'PreToolUse' }>;
  const d = await dispatch({ registry: wasmRegistry, emit, signal }, 'PreToolUse', build);
  if (d.decision !== 'allow') fail(`dispatch through the registry gave ${d.decision}`);

  const shell = createShellHook({ event: 'PreToolUse', matcher: 'Bash', command: SHELL_COMMAND, timeoutMs: 10_000 });
  const sh = await shell.run(input, { signal });
  if (!sh.ok) fail(`shell hook failed: ${JSON.stringify(sh)}`);

  // A minimal guest (copies its input to its output): what the machinery costs when the plugin does nothing.
  const echoBytes = await watFixture('hostile/echo.wat');
  const echoIn = new TextEncoder().encode('hello world');
  const echoOurs = await createSandbox(echoBytes, { limits });
  const echoRaw = await createPlugin({ wasm: [{ data: echoBytes }] }, { useWasi: false });
  let echoWorker: { call: (fn: string, b: Uint8Array) => Promise<unknown>; close: () => Promise<void> } | undefined;
  try {
    echoWorker = await createPlugin({ wasm: [{ data: echoBytes }] }, { useWasi: false, runInWorker: true, timeoutMs: 5_000 });
    await echoWorker.call('run', echoIn);
  } catch {
    echoWorker = undefined; // the reason is printed with the guard-shell row
  }

  let extismWorker: { call: (fn: string, b: Uint8Array) => Promise<unknown>; close: () => Promise<void> } | undefined;
  let extismWorkerError: string | undefined;
  try {
    const p = await createPlugin({ wasm: [{ data: bytes }] }, { useWasi: false, runInWorker: true, timeoutMs: 5_000 });
    await p.call('hook', request);
    extismWorker = p;
  } catch (error) {
    extismWorkerError = error instanceof Error ? error.message : String(error);
  }

  const n = quick ? 300 : 3000;
  // 2000 calls of warm-up each (the harness's default is 50): with the loop rows in their own process, nothing
  // else here warms the guard's code before its row is timed (`callHook` read 1.23× on Node with 50, 1.18× with 2000).
  const fast = { samples: n, warmup: quick ? 50 : 2_000, maxMs: quick ? 1_500 : 8_000 };
  const slow = { samples: quick ? 30 : 200, warmup: 5, maxMs: quick ? 2_000 : 8_000 };
  const tasks: Record<string, [Task, SampleOptions]> = {
    js: [() => jsGuard(input), { ...fast, batch: 100 }],
    jsDispatch: [() => dispatch({ registry: jsRegistry, emit, signal }, 'PreToolUse', build), { ...fast, batch: 10 }],
    wasmDispatch: [() => dispatch({ registry: wasmRegistry, emit, signal }, 'PreToolUse', build), fast],
    ours: [() => ours.callHook(input), fast],
    sandboxCall: [() => ours.sandbox.call('hook', request), fast],
    raw: [() => raw.call('hook', request), fast],
    rawInstrumented: [() => instrumented.call('hook', request), fast],
    rawDirect: [() => direct(request), fast],
    worker: [() => worker.callHook(input), { ...fast, samples: Math.ceil(n / 4) }],
    shell: [() => shell.run(input, { signal }), slow],
    ...(extismWorker ? { extismWorker: [() => extismWorker.call('hook', request), slow] } : {}),
    echoOurs: [() => echoOurs.call('run', echoIn), fast],
    echoRaw: [() => echoRaw.call('run', echoIn), fast],
    ...(echoWorker ? { echoWorker: [() => echoWorker.call('run', echoIn), slow] } : {}),
  };
  const inProcess = await compare(tasks, { rounds: 10 });
  // Allocations after timing, so the GCs they force do not land in the samples.
  const alloc = {
    raw: await bytesPerCall(() => raw.call('hook', request)),
    sandbox: await bytesPerCall(() => ours.sandbox.call('hook', request)),
    callHook: await bytesPerCall(() => ours.callHook(input)),
    dispatch: await bytesPerCall(() => dispatch({ registry: wasmRegistry, emit, signal }, 'PreToolUse', build)),
  };
  await Promise.all([instrumented.close(), ours.close(), worker.close(), raw.close(), extismWorker?.close(), echoOurs.close(), echoRaw.close(), echoWorker?.close()]);
  // The loop rows (prompts, CPU time) in a process of their own, once this one is quiet (guard-loop.ts).
  const loop = await loopRows(quick);
  const r: Record<string, Stats | undefined> & Record<LoopTask, Stats> = { ...inProcess, ...loop.stats };

  const row = (x: Parameters<typeof makeRow>[2]): Row => makeRow('dispatch', runtime, x);
  const rows: Row[] = [
    row({ what: 'plain JS hook, direct call (floor)', ours: fig(r.js!) }),
    row({ what: 'plain JS hook through dispatch', ours: fig(r.jsDispatch!), anchorName: 'JS direct', anchor: fig(r.js!) }),
    row({
      what: 'WASM guard-shell through dispatch (registry, events, timeout)',
      ours: fig(r.wasmDispatch!),
      anchorName: 'JS through dispatch',
      anchor: fig(r.jsDispatch!),
    }),
    row({
      what: 'WASM guard-shell callHook in-thread (fuel+deadline+mem cap, protobuf in/out)',
      ours: fig(r.ours!),
      anchorName: 'raw Extism in-thread',
      anchor: fig(r.raw!),
      target: { op: 'max', value: 1.3 },
      note: 'moonshot ≤ 1.1×: the host adds nothing measurable',
    }),
    row({
      what: 'the same, sandbox.call with pre-encoded bytes (no codec)',
      ours: fig(r.sandboxCall!),
      anchorName: 'raw Extism in-thread',
      anchor: fig(r.raw!),
      note: 'splits the callHook gap: this ratio is the sandbox (fuel, deadline, limits, queue); the rest is encoding the request and decoding the answer',
    }),
    row({
      what: 'raw Extism, its call context driven directly as the engine drives it (no plugin.call wrapper, our memory accessors)',
      ours: fig(r.rawDirect!),
      anchorName: 'raw Extism in-thread',
      anchor: fig(r.raw!),
      note: "informational: how much of the anchor is plugin.call's async wrapper and output object and Extism's BigInt address arithmetic, which the sandbox's engine skips (host/sandbox/extism-call.ts, extism-kernel.ts)",
    }),
    row({
      what: 'WASM guard-shell callHook in-thread, beside raw Extism driven directly',
      ours: fig(r.ours!),
      anchorName: 'raw Extism, call context driven directly',
      anchor: fig(r.rawDirect!),
      note: 'informational: everything the host adds (metering, sandbox, codec) over the leanest call of the same wasm that Extism allows',
    }),
    ...breakdown(r, alloc, loop.requestBytes, row),
    loopParts(r, loop.alloc, row),
    row({ what: 'WASM guard-shell callHook, worker isolation', ours: fig(r.worker!), anchorName: 'raw Extism in-thread', anchor: fig(r.raw!) }),
  ];
  if (r.extismWorker) {
    rows.push(
      row({
        what: 'in-thread callHook vs Extism runInWorker+timeoutMs',
        ours: fig(r.ours!),
        anchorName: 'Extism worker mode',
        anchor: fig(r.extismWorker),
        ratioOf: 'anchor/ours',
        target: { op: 'min', value: 1000 },
      }),
      row({
        what: 'our worker isolation vs Extism runInWorker+timeoutMs',
        ours: fig(r.worker!),
        anchorName: 'Extism worker mode',
        anchor: fig(r.extismWorker),
        ratioOf: 'anchor/ours',
      }),
    );
  } else {
    rows.push(
      row({
        what: 'in-thread callHook vs Extism runInWorker+timeoutMs',
        ours: fig(r.ours!),
        anchorName: 'Extism worker mode',
        anchor: { value: Number.NaN, unit: 'µs' },
        target: { op: 'min', value: 1000 },
        note: `Extism worker mode failed here: ${extismWorkerError?.slice(0, 120)}`,
      }),
    );
  }
  rows.push(
    row({
      what: 'minimal guest (echo.wat), sandbox.call in-thread',
      ours: fig(r.echoOurs!),
      anchorName: 'raw Extism in-thread',
      anchor: fig(r.echoRaw!),
      note: 'the machinery alone: the guest copies 11 bytes and returns',
    }),
  );
  if (r.echoWorker) {
    rows.push(
      row({
        what: 'minimal guest, sandbox.call in-thread vs Extism runInWorker+timeoutMs',
        ours: fig(r.echoOurs!),
        anchorName: 'Extism worker mode',
        anchor: fig(r.echoWorker),
        ratioOf: 'anchor/ours',
        note: 'the ≥ 1000× target with the guest\'s own work taken out',
      }),
    );
  }
  rows.push(
    row({
      what: 'in-thread callHook vs shell hook (sh, JSON on stdin)',
      ours: fig(r.ours!),
      anchorName: 'shell hook',
      anchor: fig(r.shell!, 'ms'),
      ratioOf: 'anchor/ours',
      target: { op: 'min', value: 100 },
    }),
  );
  return rows;
};
