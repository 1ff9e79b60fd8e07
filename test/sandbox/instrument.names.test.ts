import { describe, expect, it } from 'vitest';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { FEATURES, fixture, wabt } from './instrument-helpers.js';

interface Names {
  functions: Map<number, string>;
  locals: Map<number, Map<number, string>>;
}

/** Decodes function and local names from a module's `name` section (independently of the instrumenter). */
function decodeNames(bytes: Uint8Array): Names {
  let p = 8;
  const leb = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[p++]!;
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (!(b & 0x80)) return result;
    }
  };
  const str = (): string => {
    const n = leb();
    p += n;
    return new TextDecoder().decode(bytes.subarray(p - n, p));
  };
  const names: Names = { functions: new Map(), locals: new Map() };
  while (p < bytes.length) {
    const id = bytes[p++]!;
    const size = leb();
    const end = p + size;
    if (id === 0 && str() === 'name') {
      while (p < end) {
        const sub = bytes[p++]!;
        const subEnd = leb() + p;
        if (sub === 1) for (let n = leb(); n > 0; n--) names.functions.set(leb(), str());
        if (sub === 2)
          for (let n = leb(); n > 0; n--) {
            const fn = leb();
            const locals = new Map<number, string>();
            for (let k = leb(); k > 0; k--) locals.set(leb(), str());
            names.locals.set(fn, locals);
          }
        p = subEnd;
      }
    }
    p = end;
  }
  return names;
}

/** Function imports and defined functions of a module. */
function readInfo(bytes: Uint8Array): { imports: number; defined: number } {
  const m = new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>);
  return {
    imports: WebAssembly.Module.imports(m).filter((i) => i.kind === 'function').length,
    defined: functionCount(bytes),
  };
}

/** The function section's count. */
function functionCount(bytes: Uint8Array): number {
  let p = 8;
  const leb = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[p++]!;
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (!(b & 0x80)) return result;
    }
  };
  while (p < bytes.length) {
    const id = bytes[p++]!;
    const size = leb();
    if (id === 3) return leb();
    p += size;
  }
  return 0;
}

describe('name section', () => {
  it('shifts function and local names with the functions and names our imports', async () => {
    const wasm = await fixture('control'); // two function imports
    const before = decodeNames(wasm);
    const after = decodeNames(instrument(wasm, { maxMemoryPages: 16 }).bytes);
    expect(before.functions.get(0)).toBe('twice');
    expect(before.functions.size).toBeGreaterThan(5);

    // Two imports of ours (refuel, and the gate: the module imports functions); import wrappers stay unnamed.
    // Each defined function's variant (threaded fuel) comes after the wrappers and is named like it.
    const info = readInfo(wasm);
    const variantOf = (i: number) => 2 * info.imports + 2 + info.defined + (i - info.imports);
    const shifted = new Map([...before.functions].map(([i, n]) => [i >= 2 ? i + 2 : i, n]));
    shifted.set(2, 'wasmhooks_refuel');
    shifted.set(3, 'wasmhooks_gate');
    const base = variantOf(info.imports);
    const own = [...after.functions].filter(([i]) => i < base).sort(([a], [b]) => a - b);
    expect(new Map(own)).toEqual(new Map([...shifted].sort(([a], [b]) => a - b)));
    // Every defined function but the multi-result $split (no variant: its results cannot carry the counter) has a named variant.
    const variants = [...after.functions].filter(([i]) => i >= base).map(([, n]) => n);
    expect(variants).toEqual([...before.functions].filter(([i, n]) => i >= 2 && n !== 'split').map(([, n]) => n));

    // A function's own index keeps its parameters' names; its variant has them all, locals past the counter parameter.
    const fib = [...before.functions].find(([, n]) => n === 'fib')![0];
    expect(after.functions.get(fib + 2)).toBe('fib');
    expect(after.locals.get(fib + 2)?.get(0)).toBe('n');
    expect(after.locals.get(variantOf(fib))?.get(0)).toBe('n');
    const withLocals = [...before.locals].find(([i, l]) => i >= 2 && [...l.keys()].some((k) => k >= 1) && l.get(0) !== undefined);
    if (withLocals) {
      const [i, locals] = withLocals;
      const last = Math.max(...locals.keys());
      expect(after.locals.get(variantOf(i))?.get(last + 1)).toBe(locals.get(last));
    }
    const ownKeys = [...after.locals.keys()].filter((i) => i < variantOf(info.imports));
    expect(ownKeys.sort()).toEqual([...before.locals.keys()].map((i) => (i >= 2 ? i + 2 : i)).sort());
  });

  it('reads back through wabt with calls still naming their callees', async () => {
    const w = await wabt();
    const { bytes } = instrument(await fixture('control'), { maxMemoryPages: 16 });
    const mod = w.readWasm(bytes, { readDebugNames: true, ...FEATURES });
    try {
      mod.applyNames();
      const text = mod.toText({ foldExprs: false, inlineExport: true });
      expect(text).toContain('(import "wasmhooks:sandbox" "refuel" (func $wasmhooks_refuel');
      expect(text).toMatch(/\(func \$fib[\s\S]*?call \$fib[\s\S]*?call \$fib/);
      expect(text).toContain('(i32.const 0) func $add $sub $mul)');
      expect(text).toContain('(ref.func $neg) (ref.null func))');
      expect(text).toContain('(global $fref funcref (ref.func $sub))');
      expect(text).toContain('(start $init)');
    } finally {
      mod.destroy();
    }
  });

  it('drops a malformed name section instead of failing the module', async () => {
    const wasm = await fixture('fuel');
    // Corrupt the first function-name subsection's count so it runs past its end.
    const at = indexOfName(wasm) + 1;
    const bad = wasm.slice();
    bad[at + 2] = 0x7f;
    const out = instrument(bad, { maxMemoryPages: 16 }).bytes;
    expect(WebAssembly.validate(out)).toBe(true);
    expect(decodeNames(out).functions.size).toBe(0);
  });
});

/** Offset just past the "name" custom section's own name. */
function indexOfName(bytes: Uint8Array): number {
  for (let i = 8; i < bytes.length - 4; i++)
    if (bytes[i] === 4 && String.fromCharCode(...bytes.subarray(i + 1, i + 5)) === 'name') return i + 4;
  throw new Error('no name section');
}
