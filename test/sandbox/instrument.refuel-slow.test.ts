// The cold arm of a short loop's back-edge check on a fuel local calls
// `$refuel_slow`, a defined function, instead of the `refuel` import
// (fuel.ts): JavaScriptCore compiles a short loop whose body holds an import
// call 2.5x slower even when the call never runs
// (docs/sandbox-instrumentation.md, "Overhead on Bun").
import { describe, expect, it } from 'vitest';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { FEATURES, assemble, fixture, wabt } from './instrument-helpers.js';

/** Each function's text in the module's order (imports are not `(func` entries with bodies). */
async function functions(bytes: Uint8Array): Promise<string[]> {
  const w = await wabt();
  const mod = w.readWasm(bytes, { readDebugNames: false, ...FEATURES });
  try {
    return mod.toText({ foldExprs: false, inlineExport: false }).split(/\n {2}\(func /).slice(1);
  } finally {
    mod.destroy();
  }
}

describe('$refuel_slow', () => {
  it('is what the back-edge checks of short loops call: no import call and no global access inside those loops', async () => {
    const { bytes } = instrument(await fixture('hash'), { maxMemoryPages: 256 });
    const fns = await functions(bytes);
    // fill, hash (thin wrappers), their variants, then $refuel_slow.
    expect(fns).toHaveLength(5);
    const slow = fns.at(-1)!;
    expect(slow).toMatch(/^\(;5;\) \(type \d+\) \(param i64\) \(result i64\)/);
    expect(slow).toContain('call 0');
    // Past JavaScriptCore's inlining size limit (500 bytes), so the import call stays out of callers' loops.
    expect(slow.match(/\bnop\b/g)?.length ?? 0).toBeGreaterThan(500);
    for (const variant of fns.slice(2, 4)) {
      const firstLoop = variant.indexOf('loop');
      // The entry check (before any loop) calls the import itself; every check inside a loop calls $refuel_slow.
      expect(variant.slice(0, firstLoop).match(/call 0\b/g)).toHaveLength(1);
      const loops = variant.slice(firstLoop);
      expect(loops).not.toMatch(/call 0\b/);
      expect(loops).not.toMatch(/global\.(get|set)/);
      expect(loops).toContain('call 5');
    }
  });

  it('is not used by a long loop, whose back-edge check keeps the import call (cheaper on Node 20)', async () => {
    // 60 adds: weight 120 or more between the header and the back-edge, past TIGHT_LOOP (walk.ts).
    const body = Array.from({ length: 60 }, () => '(local.set $x (i32.add (local.get $x) (i32.const 1)))').join('\n');
    const wasm = await assemble(`(module (func (export "run") (param $n i32) (local $x i32)
      (loop $l ${body}
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br_if $l (local.get $n)))))`);
    const fns = await functions(instrument(wasm, { maxMemoryPages: 256 }).bytes);
    const variant = fns[1]!;
    const loop = variant.slice(variant.indexOf('loop'));
    expect(loop).toMatch(/call 0\b/);
    expect(loop).not.toMatch(/call 3\b/); // $refuel_slow (the import is 0, the wrapper 1, the variant 2)
  });

  it('refuels as often as the slice demands and keeps the result and the fuel exact', async () => {
    const original = await fixture('hash');
    const plain = (await WebAssembly.instantiate(original)).instance.exports as Record<string, (...a: number[]) => number>;
    const results: bigint[] = [];
    for (const slice of [100n, 1_000_000_000n]) {
      // Like the sandbox's Meter: used = slices handed out + the overdraft the global shows at each refuel − what is left.
      const state = { calls: 0, handedOut: 0n, overdraft: 0n };
      let global: WebAssembly.Global | undefined;
      const refuel = (): bigint => {
        state.calls++;
        state.overdraft += -(global!.value as bigint);
        state.handedOut += slice;
        return slice;
      };
      const { bytes } = instrument(original, { maxMemoryPages: 256 });
      const inst = (await WebAssembly.instantiate(bytes, { 'wasmhooks:sandbox': { refuel } })).instance;
      global = inst.exports.__wasmhooks_fuel as WebAssembly.Global;
      const ex = inst.exports as Record<string, (...a: number[]) => number>;
      plain.fill!(10_000);
      ex.fill!(10_000);
      expect(ex.hash!(10_000, 3)).toBe(plain.hash!(10_000, 3));
      if (slice === 100n) expect(state.calls).toBeGreaterThan(1_000);
      results.push(state.handedOut + state.overdraft - (global.value as bigint));
    }
    // The same work costs the same fuel whether it refuelled 1 time or thousands.
    expect(results[0]).toBe(results[1]);
  });

  it('is not added in exact mode, where the counter lives in the global', async () => {
    const { bytes } = instrument(await fixture('hash'), { maxMemoryPages: 256, metering: 'exact' });
    const fns = await functions(bytes);
    expect(fns).toHaveLength(2);
    expect(fns.join('\n')).not.toContain('(param i64) (result i64)');
  });
});
