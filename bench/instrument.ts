/**
 * Instrumenter speed and fuel overhead. Run: npx tsx bench/instrument.ts
 *
 * 1. Time to instrument real modules (median of N), beside V8's own
 *    `WebAssembly.validate` on the same bytes as an anchor.
 * 2. Fuel overhead: a compute-heavy loop (FNV-1a over 1 MiB, test/fixtures/wat/hash.wat)
 *    instrumented vs original, same run, interleaved.
 */
import { readFile } from 'node:fs/promises';
import { instrument } from '../host/sandbox/instrument/index.js';

const N = 41;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

function time(fn: () => void, n = N): number {
  return measure(fn, n).wall;
}

/**
 * Median wall time and median process CPU time. The machine is shared: under
 * load, wall time includes waiting for a core, CPU time does not (it does
 * include V8's background GC and compiler threads).
 */
function measure(fn: () => void, n = N): { wall: number; cpu: number } {
  for (let i = 0; i < 5; i++) fn();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    fn();
    walls.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpus.push((d.user + d.system) / 1000);
  }
  return { wall: median(walls), cpu: median(cpus) };
}

/** libwabt's own wasm (≈600 KB, Emscripten), captured as the wabt package instantiates it. */
async function wabtAndItsWasm() {
  let captured: Uint8Array | undefined;
  const original = WebAssembly.instantiate;
  const spy = (bytes: unknown, imports?: WebAssembly.Imports) => {
    if (!captured && bytes instanceof Uint8Array) captured = new Uint8Array(bytes);
    if (!captured && bytes instanceof ArrayBuffer) captured = new Uint8Array(bytes.slice(0));
    return (original as (b: unknown, i?: WebAssembly.Imports) => Promise<unknown>)(bytes, imports);
  };
  (WebAssembly as { instantiate: unknown }).instantiate = spy;
  try {
    const wabt = await (await import('wabt')).default();
    if (!captured) throw new Error('could not capture libwabt wasm');
    return { wabt, wasm: captured };
  } finally {
    (WebAssembly as { instantiate: unknown }).instantiate = original;
  }
}

async function file(url: URL): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await readFile(url));
}

const { wabt, wasm: libwabt } = await wabtAndItsWasm();
const modules: [string, Uint8Array][] = [
  ['libwabt.wasm (wabt npm)', libwabt],
  ['webp_codec.wasm (playwright-core)', await file(new URL('../node_modules/playwright-core/lib/webp_codec.wasm', import.meta.url))],
  ['corpus memory.wasm', await file(new URL('../../shared/corpus/memory.wasm', import.meta.url))],
  ['corpus code.wasm', await file(new URL('../../shared/corpus/code.wasm', import.meta.url))],
];

console.log(`\nInstrumentation time (median of ${N}; anchor: WebAssembly.validate on the same bytes)`);
console.log(`load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')} on ${(await import('node:os')).cpus().length} cores\n`);
const rows = modules.map(([name, wasm]) => {
  const t0 = performance.now();
  instrument(wasm, { maxMemoryPages: 65536 });
  const first = performance.now() - t0;
  const { wall: ours, cpu } = measure(() => instrument(wasm, { maxMemoryPages: 65536 }));
  const anchor = time(() => WebAssembly.validate(wasm as Uint8Array<ArrayBuffer>));
  const mb = wasm.length / 1e6;
  const codeKB = codeSectionBytes(wasm) / 1e3;
  return {
    module: name,
    'size KB': Math.round(wasm.length / 1e3),
    'code KB': Math.round(codeKB),
    'first call ms': first.toFixed(1),
    'instrument ms': ours.toFixed(2),
    'cpu ms': cpu.toFixed(2),
    'MB/s': (mb / (ours / 1000)).toFixed(0),
    'validate ms (anchor)': anchor.toFixed(2),
    ratio: (ours / anchor).toFixed(2),
    'ms per 700 KB': ((ours / wasm.length) * 700e3).toFixed(2),
    'cpu ms per 700 KB': ((cpu / wasm.length) * 700e3).toFixed(2),
  };
});
console.table(rows);
console.log('target: instrumenting a ~700 KB module ≤ 30 ms. "first call" includes JIT warm-up (cold only for the first row)');
console.log('and page-faulting fresh output buffers, which is slow on this VM (≈ 4 ms per MB).\n');

// Fuel overhead.
const hashSource = await readFile(new URL('../test/fixtures/wat/hash.wat', import.meta.url), 'utf8');
const parsed = wabt.parseWat('hash.wat', hashSource, {});
const hashWasm = new Uint8Array(parsed.toBinary({}).buffer);
parsed.destroy();
const { bytes: hashInstrumented } = instrument(hashWasm, { maxMemoryPages: 256 });
let refuels = 0;
const imports = { 'wasmhooks:sandbox': { refuel: () => (refuels++, 10_000_000n) } };
const plain = (await WebAssembly.instantiate(hashWasm)).instance.exports as Record<string, (...a: number[]) => number>;
const metered = (await WebAssembly.instantiate(hashInstrumented, imports)).instance.exports as Record<string, (...a: number[]) => number>;
const BYTES = 1 << 20;
const ROUNDS = 8;
plain.fill!(BYTES);
metered.fill!(BYTES);
if (plain.hash!(BYTES, 1) !== metered.hash!(BYTES, 1)) throw new Error('instrumented hash differs');
const tPlain: number[] = [];
const tMetered: number[] = [];
for (let i = 0; i < 5; i++) plain.hash!(BYTES, ROUNDS), metered.hash!(BYTES, ROUNDS);
refuels = 0;
for (let i = 0; i < 31; i++) {
  tPlain.push(time(() => plain.hash!(BYTES, ROUNDS), 1));
  tMetered.push(time(() => metered.hash!(BYTES, ROUNDS), 1));
}
const [p, m] = [median(tPlain), median(tMetered)];
console.log(`Fuel overhead: FNV-1a over 1 MiB × ${ROUNDS} rounds (hash.wat), median of 31, interleaved\n`);
console.table([
  {
    'original ms (anchor)': p.toFixed(2),
    'instrumented ms': m.toFixed(2),
    ratio: (m / p).toFixed(3),
    'refuels/call (10M slices)': (refuels / (31 * 6)).toFixed(1),
  },
]);
console.log('target: ratio ≤ 1.2\n');

function codeSectionBytes(wasm: Uint8Array): number {
  let p = 8;
  while (p < wasm.length) {
    const id = wasm[p++]!;
    let size = 0;
    for (let shift = 0; ; shift += 7) {
      const b = wasm[p++]!;
      size += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) break;
    }
    if (id === 10) return size;
    p += size;
  }
  return 0;
}
