/**
 * Helpers for the dispatch rows that follow one guard decision from raw
 * Extism up to the agent loop: the instrumented bytes in raw Extism (fuel
 * alone), a loop whose every iteration runs one `Bash` call past guard-shell,
 * JS heap bytes allocated per call, and the row that splits the guard's
 * cost in the loop (`loopParts`).
 */
import createPlugin from '@extism/extism';
import v8 from 'node:v8';
import vm from 'node:vm';
import { z } from 'zod';
import { createHost, scriptedModel, tool, type HookHandler, type HookInput, type HookOutput, type HookResult, type WasmPlugin } from '../../host/index.js';
import { encodeHookInput } from '../../host/protocol/hook-request.js';
import { GATE_NAME, instrument, REFUEL_MODULE, REFUEL_NAME } from '../../host/sandbox/instrument/index.js';
import type { makeRow, Row } from './row.js';
import { directCaller, probeContext } from '../../host/sandbox/extism-call.js';
import { SELF_CHECKED } from '../../host/sandbox/engine-imports.js';

/**
 * guard-shell's instrumented bytes in raw Extism, with a refuel that always refills and a gate
 * that lets every host call through: the instrumentation's cost alone.
 */
export async function rawInstrumented(bytes: Uint8Array) {
  return createPlugin(
    // The sandbox's own plan: its alloc checks itself (SELF_CHECKED), so the bytes are the ones it runs.
    { wasm: [{ data: instrument(bytes, { maxMemoryPages: 65536, selfChecked: SELF_CHECKED }).bytes }] },
    { useWasi: false, functions: { [REFUEL_MODULE]: { [REFUEL_NAME]: () => 10_000_000n, [GATE_NAME]: () => 0 } } },
  );
}

/**
 * guard-shell's original bytes in raw Extism, called the way the sandbox's
 * engine calls a plugin (host/sandbox/extism-call.ts): Extism's own call
 * context driven directly, without `plugin.call`'s async wrapper and output
 * object, the memory accessors answered without Extism's BigInt address
 * arithmetic (extism-kernel.ts). Shows how much of the raw anchor is that.
 */
export async function rawDirect(bytes: Uint8Array): Promise<(input: Uint8Array) => Promise<Uint8Array>> {
  const functions = {};
  const context = probeContext(functions, REFUEL_MODULE);
  const plugin = await createPlugin({ wasm: [{ data: bytes }] }, { useWasi: false, functions });
  const direct = directCaller(context(), await plugin.getInstance(), functions);
  if (!direct) throw new Error('guard path bench: this Extism build has no call context to drive directly');
  return (input) => Promise.resolve(direct.call('hook', input));
}

export const LOOP_CALLS = 20;
/** The command every tool call of the loop prompts carries, and the text the tools return. */
const COMMAND = 'ls -la src';
const commandText = (): string => COMMAND;

/**
 * Prompts of LOOP_CALLS iterations, each one model turn asking for one `Bash`
 * call (a JS tool that returns at once), with and without guard-shell's hooks,
 * and without hooks but with a tool that makes one raw Extism call of the
 * guard's own request (`rawInTool`: what a raw call costs inside the loop).
 * `stubHook` and `rawHook` register the guard's handler with its call
 * swapped for nothing and for a raw Extism call of the same bytes: they
 * split the guard's cost in the loop into the loop's part, the raw call as
 * the loop sees it, and our call path.
 * `guardInput` is the PreToolUse input the guard saw, so the anchor can send
 * raw Extism the very bytes the loop sends.
 */
export async function guardLoop(guard: WasmPlugin, raw: { call: (fn: string, input: Uint8Array) => Promise<unknown> }) {
  let guardBytes: Uint8Array = new Uint8Array(0);
  const bash = tool('Bash', 'runs nothing', z.object({ command: z.string() }), ({ command }) => command);
  // The in-loop anchor: no hooks; the tool itself makes one raw Extism call of the bytes the guard
  // gets, pre-encoded, and does nothing else: no async frame of its own, no closure per call (the
  // answer is a shared function giving the text the plain tool returns), so the loop runs the same
  // path after it as after the plain tool.
  const rawBash = tool('Bash', 'runs nothing', z.object({ command: z.string() }), () => raw.call('hook', guardBytes).then(commandText));
  const turn = { toolCalls: [{ name: 'Bash', input: { command: COMMAND } }] };
  // The guard's own handler (event, matcher, policy, self-timed) with its call swapped out: the
  // loop's part alone (`stub`: settles at once), and the loop's part plus a raw Extism call of the
  // very bytes the guard would get (`raw`). What the guard adds beyond the latter is our call path.
  // Both answer what the guard answers (its `allow`, its fuel): the loop then takes the same path.
  const real = guard.hooks()[0]!;
  let answer: HookResult | undefined;
  const swapped = (what: string, run: HookHandler['run']): HookHandler => ({ ...real, id: `${real.id}-${what}`, run });
  const stubHook = swapped('stub', () => Promise.resolve(answer!));
  const rawHook = swapped('raw', () => raw.call('hook', guardBytes).then(() => answer!));
  // What a user could write instead of loading the guard: a JS hook on the guard's event and matcher
  // that makes a raw Extism call of the very bytes the guard gets (no encoding, no decoding: a floor)
  // and allows, as the guard does.
  const userHook = async (): Promise<HookOutput> => {
    if (!(await raw.call('hook', guardBytes))) throw new Error('guard loop bench: raw Extism gave no output');
    return { decision: 'allow' };
  };
  const prompter = (withGuard: boolean | HookHandler | 'user', spy?: (i: HookInput) => void, rawInTool = false) => {
    const model = scriptedModel({ rules: [{ when: () => true, reply: turn }] });
    const host = createHost({ model, tools: [rawInTool ? rawBash : bash], permissionMode: 'bypassPermissions', maxTurns: LOOP_CALLS, cwd: '/tmp' });
    if (withGuard === true) host.use(guard);
    else if (withGuard === 'user') host.hooks.add(real.event, { ...(real.matcher === undefined ? {} : { matcher: real.matcher.source }), hooks: [userHook] });
    else if (withGuard) host.hooks.addHandler(withGuard);
    if (spy) host.hooks.add('PreToolUse', { hooks: [async (i) => (spy(i), {})] });
    let n = 0;
    return async () => {
      model.requests.length = 0;
      const result = await host.session({ sessionId: `bench-${n++ % 10}` }).prompt('go');
      if (result.subtype !== 'error_max_turns') throw new Error(`guard loop bench: unexpected result ${result.subtype}`);
    };
  };
  const seen: HookInput[] = [];
  const spied = prompter(true, (i) => seen.push(i));
  await spied();
  await spied();
  if (seen.length === 0) throw new Error('guard loop bench: no PreToolUse reached the hooks');
  // The request must not grow from call to call (only turn/iteration change; their varints stay one byte here).
  const sizes = seen.map((i) => encodeHookInput(i, 0).length);
  if (Math.max(...sizes) !== Math.min(...sizes)) throw new Error(`guard loop bench: the hook request grows across calls: ${sizes.join(', ')} bytes`);
  guardBytes = encodeHookInput(seen[0]!, 0);
  answer = await real.run(seen[0]!, { signal: new AbortController().signal });
  if (!answer.ok || answer.output.decision !== 'allow') throw new Error(`guard loop bench: the guard did not allow: ${JSON.stringify(answer)}`);
  return {
    bare: prompter(false),
    guarded: prompter(true),
    rawInTool: prompter(false, undefined, true),
    stubHook: prompter(stubHook),
    rawHook: prompter(rawHook),
    userHook: prompter('user'),
    guardInput: seen[0]!,
    guardBytes,
    requestBytes: sizes[0]!,
  };
}

type Gc = () => void;
let exposed: Gc | undefined;
/**
 * V8's gc(): the global one (Node --expose-gc, Deno --v8-flags=--expose-gc), else one exposed now
 * (`npx tsx bench/run.ts`, plain `deno run`): the flag set at run time, then a fresh context's `gc`.
 * Only called once the timed samples are taken (the allocation rows come after them). Bun's
 * heapUsed does not follow allocations closely enough: n/a there.
 */
const gcFn = (): Gc | undefined => {
  const g = globalThis as { gc?: Gc; Bun?: unknown };
  if (g.Bun !== undefined) return undefined;
  if (typeof g.gc === 'function') return g.gc;
  if (!exposed) {
    try {
      v8.setFlagsFromString('--expose-gc');
      const fn: unknown = vm.runInNewContext('typeof gc === "function" ? gc : undefined');
      if (typeof fn === 'function') exposed = fn as Gc;
    } catch {
      // No way to collect here: the rows say n/a.
    }
  }
  return exposed;
};

/**
 * JS heap bytes allocated per call, from the heap growth over `n` calls
 * after a full GC (few enough calls that no collection runs in between;
 * the smallest of 5 tries drops any try a collection cut short). NaN
 * where the runtime gives no V8 gc() (Bun).
 */
export async function bytesPerCall(task: () => unknown, n = 200): Promise<number> {
  const gc = gcFn();
  if (!gc) return Number.NaN;
  for (let i = 0; i < 50; i++) await task();
  let best = Infinity;
  for (let t = 0; t < 5; t++) {
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < n; i++) await task();
    const grew = (process.memoryUsage().heapUsed - before) / n;
    if (grew > 0) best = Math.min(best, grew);
  }
  return best === Infinity ? 0 : best;
}

/**
 * Where the guard's time in the loop goes (CPU µs per tool call, all from prompts of the same run):
 * the loop's own part (the guard's handler with its call stubbed out: dispatch, the hook input,
 * hook.start/hook.end, the outcome, the permission path a hook `allow` takes), a raw Extism call of
 * the same bytes made where the guard's call is made, and our call path (instrumentation, sandbox,
 * codec) on top of it; each beside the same work in a tight loop. The regression row for "loop".
 */
export function loopParts(
  r: Record<string, { median: number } | undefined>,
  alloc: Record<'bare' | 'stubHook' | 'rawHook' | 'guarded', number>,
  row: (x: Parameters<typeof makeRow>[2]) => Row,
): Row {
  const per = (k: string) => r[k]!.median / LOOP_CALLS;
  const bare = per('loopBare');
  const own = per('loopStubHook') - bare;
  const rawIn = per('loopRawHook') - per('loopStubHook');
  const pathIn = per('loopGuarded') - per('loopRawHook');
  const rawTight = per('rawLoop');
  const pathTight = per('callHookLoop') - rawTight;
  const f = (v: number) => v.toFixed(1);
  const kb = (b: number, signed = false) => (Number.isFinite(b) ? `${signed && b >= 0 ? '+' : ''}${(b / 1024).toFixed(2)} KB` : 'n/a');
  return row({
    what: 'guard-shell in the agent loop, where the added time goes (CPU µs per tool call)',
    ours: { value: own + rawIn + pathIn, unit: 'µs', clock: 'cpu' },
    anchorName: 'raw Extism in-thread, tight loop',
    anchor: { value: rawTight, unit: 'µs', clock: 'cpu' },
    note:
      `the loop's own part (the guard's handler, its call stubbed: dispatch, hook input, hook events, permission path) +${f(own)}; ` +
      `a raw Extism call of the same bytes in its place ${f(rawIn)} (${f(rawTight)} in a tight loop: +${f(rawIn - rawTight)} from being in the loop); ` +
      `our call path on top (instrumentation, sandbox, codec) +${f(pathIn)} (+${f(pathTight)} in a tight loop of callHook); ` +
      `JS heap per tool call: the loop with no hook ${kb(alloc.bare)}, the loop's own part ${kb(alloc.stubHook - alloc.bare, true)}, ` +
      `the raw call ${kb(alloc.rawHook - alloc.stubHook, true)}, our call path ${kb(alloc.guarded - alloc.rawHook, true)}`,
  });
}
