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
import { bytesPerCall, LOOP_CALLS, loopParts, rawDirect, rawInstrumented } from './guard-path.js';
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

type Stat = { median: number; p99: number };

/**
 * The guard's cost from raw Extism up to the agent loop, one layer at a time,
 * and what each layer allocates: the row to read when a ratio regresses.
 */
function breakdown(
  r: Record<string, Stat | undefined>,
  alloc: Record<'raw' | 'sandbox' | 'callHook' | 'dispatch', number>,
  requestBytes: number,
  row: (x: Parameters<typeof makeRow>[2]) => Row,
): Row[] {
  const raw = r.raw!.median;
  const loopRaw = r.rawLoop!.median / LOOP_CALLS;
  const perCall = (r.loopGuarded!.median - r.loopBare!.median) / LOOP_CALLS;
  const rawInLoop = (r.loopRawInTool!.median - r.loopBare!.median) / LOOP_CALLS;
  const layers: [string, number][] = [
    ['raw', raw],
    ['instrumentation', r.rawInstrumented!.median - raw],
    ['sandbox', r.sandboxCall!.median - r.rawInstrumented!.median],
    ['codec', r.ours!.median - r.sandboxCall!.median],
    ['dispatch', r.wasmDispatch!.median - r.ours!.median],
    ['loop', perCall * (raw / loopRaw) - r.wasmDispatch!.median],
  ];
  const kb = (b: number) => (Number.isFinite(b) ? `${(b / 1024).toFixed(2)} KB` : 'n/a');
  return [
    row({
      what: 'guard-shell loaded into the agent loop, added per tool call (20 Bash calls/prompt), beside a raw Extism call made at the same place in the loop (by the tool, no hooks)',
      ours: { value: perCall, unit: 'µs', clock: 'cpu' },
      anchorName: "raw Extism in-thread plugin.call of the same bytes, made by the loop's tool",
      anchor: { value: rawInLoop, unit: 'µs', clock: 'cpu' },
      target: { op: 'max', value: 1.5 },
      note:
        `CPU time: (prompt with the guard − prompt without) / 20, beside (prompt whose Bash tool makes one raw call − prompt without) / 20; ` +
        `the anchor's tool sends the very ${requestBytes} bytes the guard gets on every call of 2 prompts (checked: the request does not grow), pre-encoded, ` +
        `and does nothing but the call (no async frame, no closure per call); a call per tool call is what a user could make instead, and it can only be made inside the loop`,
    }),
    row({
      what: 'the same, beside raw Extism in a tight loop (informational: the anchor outside the loop)',
      ours: { value: perCall, unit: 'µs', clock: 'cpu' },
      anchorName: 'raw Extism in-thread, the bytes the loop sends, tight loop',
      anchor: { value: loopRaw, unit: 'µs', clock: 'cpu' },
      note: `CPU time: 20 raw calls back to back / 20; inside the loop the same raw call costs ${(rawInLoop / loopRaw).toFixed(2)}× this (caches and JIT state the rest of the loop takes), which a call made per tool call cannot avoid`,
    }),
    row({
      what: 'the same, beside a JS hook that calls raw Extism (what a user could write instead of loading the guard)',
      ours: { value: perCall, unit: 'µs', clock: 'cpu' },
      anchorName: 'JS hook on the guard\'s event and matcher: raw Extism plugin.call of the same bytes, then allow',
      anchor: { value: (r.loopUserHook!.median - r.loopBare!.median) / LOOP_CALLS, unit: 'µs', clock: 'cpu' },
      note: 'informational, a second anchor: (prompt with that hook − prompt without) / 20; the hook neither encodes the request nor decodes the answer (it sends the bytes the guard gets and allows), so it is a floor for what a user\'s own hook costs',
    }),
    row({
      what: 'breakdown of one guard decision (median µs per layer, wall; loop layer scaled from CPU time)',
      ours: { value: r.wasmDispatch!.median, unit: 'µs' },
      anchorName: 'raw Extism in-thread',
      anchor: { value: raw, unit: 'µs' },
      note:
        layers.map(([k, v]) => `${k} ${v >= 0 ? (k === 'raw' ? '' : '+') : ''}${v.toFixed(1)}`).join(' / ') +
        `; JS heap allocated per call: raw ${kb(alloc.raw)}, sandbox.call ${kb(alloc.sandbox)}, callHook ${kb(alloc.callHook)}, dispatch ${kb(alloc.dispatch)}`,
    }),
  ];
}

