/**
 * Helpers for the dispatch rows that follow one guard decision from raw
 * Extism up to the agent loop: the instrumented bytes in raw Extism (fuel
 * alone), a loop whose every iteration runs one `Bash` call past guard-shell,
 * and JS heap bytes allocated per call.
 */
import createPlugin from '@extism/extism';
import { z } from 'zod';
import { createHost, scriptedModel, tool, type HookInput, type WasmPlugin } from '../../host/index.js';
import { encodeHookInput } from '../../host/protocol/hook-request.js';
import { GATE_NAME, instrument, REFUEL_MODULE, REFUEL_NAME } from '../../host/sandbox/instrument/index.js';
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
 * object. Shows how much of the raw anchor is that wrapper.
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

/**
 * Prompts of LOOP_CALLS iterations, each one model turn asking for one `Bash`
 * call (a JS tool that returns at once), with and without guard-shell's hooks,
 * and without hooks but with a tool that makes one raw Extism call of the
 * guard's own request (`rawInTool`: what a raw call costs inside the loop).
 * `guardInput` is the PreToolUse input the guard saw, so the anchor can send
 * raw Extism the very bytes the loop sends.
 */
export async function guardLoop(guard: WasmPlugin, raw: { call: (fn: string, input: Uint8Array) => Promise<unknown> }) {
  let guardBytes: Uint8Array = new Uint8Array(0);
  const bash = tool('Bash', 'runs nothing', z.object({ command: z.string() }), ({ command }) => command);
  // The in-loop anchor: no hooks; the tool itself makes one raw Extism call of the bytes the guard gets.
  const rawBash = tool('Bash', 'runs nothing', z.object({ command: z.string() }), async ({ command }) => (await raw.call('hook', guardBytes), command));
  const turn = { toolCalls: [{ name: 'Bash', input: { command: 'ls -la src' } }] };
  const prompter = (withGuard: boolean, spy?: (i: HookInput) => void, rawInTool = false) => {
    const model = scriptedModel({ rules: [{ when: () => true, reply: turn }] });
    const host = createHost({ model, tools: [rawInTool ? rawBash : bash], permissionMode: 'bypassPermissions', maxTurns: LOOP_CALLS, cwd: '/tmp' });
    if (withGuard) host.use(guard);
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
  return { bare: prompter(false), guarded: prompter(true), rawInTool: prompter(false, undefined, true), guardBytes, requestBytes: sizes[0]! };
}

type Gc = () => void;
/** V8's gc() (Node --expose-gc, Deno --v8-flags=--expose-gc). Bun's heapUsed does not follow allocations closely enough: n/a there. */
const gcFn = (): Gc | undefined => {
  const g = globalThis as { gc?: Gc; Bun?: unknown };
  return typeof g.gc === 'function' && g.Bun === undefined ? g.gc : undefined;
};

/**
 * JS heap bytes allocated per call, from the heap growth over `n` calls
 * after a full GC (few enough calls that no collection runs in between;
 * the smallest of 5 tries drops any try a collection cut short). NaN
 * where the runtime exposes no V8 gc() (run Node with --expose-gc).
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
