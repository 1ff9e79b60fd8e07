/**
 * The dispatch group's guard rows read together (dispatch.ts measures them):
 * the guard in the agent loop beside its anchors, and its cost layer by layer
 * from raw Extism up to the loop.
 */
import { LOOP_CALLS } from './guard-path.js';
import type { makeRow, Row } from './row.js';

type Stat = { median: number; p99: number };

/**
 * The guard's cost from raw Extism up to the agent loop, one layer at a time,
 * and what each layer allocates: the row to read when a ratio regresses.
 */
export function breakdown(
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

