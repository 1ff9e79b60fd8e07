/**
 * Row group 3: plugin load and instrumentation throughput.
 * - loadPlugin (instrument + compile + instantiate + describe) of guard-shell:
 *   "cold" gets bytes never seen before (a fresh custom section each time, so
 *   no compiled code can be reused); "same bytes" loads identical bytes again.
 *   "Same bytes" hits host/sandbox/compiled.ts (no instrument, no compile).
 *   The anchor is raw Extism's createPlugin on the same bytes (compile +
 *   instantiate). The cold start in fresh processes is bench/rows/cold.ts.
 * - Instrumentation throughput (MB/s) on two ~600 KB real modules that are
 *   nearly all code (libwabt's own wasm from the `wabt` package, playwright-core's
 *   webp_codec.wasm) and on the corpus's memory.wasm and code.wasm (mostly
 *   DWARF), beside WebAssembly.validate on the same bytes.
 */
import createPlugin from '@extism/extism';
import { readFile } from 'node:fs/promises';
import wabtInit from 'wabt';
import { createSandbox, loadPlugin } from '../../host/index.js';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { compare, runtimeName } from '../harness.js';
import { fig, makeRow, type Row, type RowsFn } from './row.js';

let salt = 0;
/** The module with a unique 8-byte custom section appended: new bytes, same code. */
function fresh(bytes: Uint8Array): Uint8Array {
  const name = new TextEncoder().encode('bench');
  const payload = new Uint8Array(8);
  new DataView(payload.buffer).setFloat64(0, Date.now() + ++salt + Math.random());
  const section = [0, 1 + name.length + payload.length, name.length, ...name, ...payload];
  const out = new Uint8Array(bytes.length + section.length);
  out.set(bytes);
  out.set(section, bytes.length);
  return out;
}

export const run: RowsFn = async ({ quick }) => {
  const runtime = runtimeName();
  const guard = new Uint8Array(await readFile(new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url)));
  const limits = { timeoutMs: 5_000 };
  const load = async (bytes: Uint8Array) => (await loadPlugin({ bytes }, { limits })).close();
  const extism = async (bytes: Uint8Array) => (await createPlugin({ wasm: [{ data: bytes }] }, { useWasi: false })).close();
  const instrumentOnly = (bytes: Uint8Array) => instrument(bytes, { maxMemoryPages: 65536 }).bytes;
  const instrumented = instrumentOnly(guard);
  const samples = { samples: quick ? 20 : 100, warmup: 3, maxMs: quick ? 2_000 : 6_000 };
  const r = await compare(
    {
      cold: () => load(fresh(guard)),
      same: () => load(guard),
      extismCold: () => extism(fresh(guard)),
      sandbox: async () => (await createSandbox(fresh(guard), { limits })).close(),
      instrument: () => instrumentOnly(fresh(guard)),
      compile: () => WebAssembly.compile(fresh(instrumented) as Uint8Array<ArrayBuffer>),
    },
    { ...samples, rounds: 10, clock: 'cpu' },
  );
  const rows: Row[] = [
    makeRow('load', runtime, {
      what: `loadPlugin guard-shell (${(guard.length / 1e3).toFixed(0)} KB), cold (new bytes)`,
      ours: fig(r.cold, 'ms', 'cpu'),
      anchorName: 'raw Extism createPlugin, new bytes',
      anchor: fig(r.extismCold, 'ms', 'cpu'),
      note: `of which instrument ${(r.instrument.median / 1e3).toFixed(2)} ms, compile ${(r.compile.median / 1e3).toFixed(2)} ms, createSandbox (both + instantiate) ${(r.sandbox.median / 1e3).toFixed(2)} ms (CPU-time medians); the rest is describe, its decoding and the checks`,
    }),
    makeRow('load', runtime, {
      what: 'loadPlugin guard-shell, same bytes again (compiled-module cache hit)',
      ours: fig(r.same, 'ms', 'cpu'),
      anchorName: 'cold load',
      anchor: fig(r.cold, 'ms', 'cpu'),
    }),
  ];
  const file = async (url: URL) => new Uint8Array(await readFile(url));
  const modules: [string, Uint8Array][] = [
    ['wabt package libwabt.wasm', await libwabtWasm()],
    ['playwright-core webp_codec.wasm', await file(new URL('../../node_modules/playwright-core/lib/webp_codec.wasm', import.meta.url))],
    ['sql.js sql-wasm.wasm', await file(new URL('../../node_modules/sql.js/dist/sql-wasm.wasm', import.meta.url))],
    ['vscode-oniguruma onig.wasm', await file(new URL('../../node_modules/vscode-oniguruma/release/onig.wasm', import.meta.url))],
  ];
  for (const [name, bytes] of modules) {
    const t = await compare(
      {
        instrument: () => instrumentOnly(bytes),
        validate: () => WebAssembly.validate(bytes as Uint8Array<ArrayBuffer>),
      },
      { samples: quick ? 10 : 40, warmup: 3, maxMs: quick ? 3_000 : 8_000, rounds: 5, clock: 'cpu' },
    );
    const mbps = (us: number) => bytes.length / us; // bytes per CPU µs = MB/s of CPU time
    const code = codeSectionBytes(bytes);
    rows.push(
      makeRow('load', runtime, {
        what: `instrumentation throughput, ${name} (${(bytes.length / 1e6).toFixed(2)} MB, code ${(code / 1e3).toFixed(0)} KB)`,
        ours: { value: mbps(t.instrument.median), unit: 'MB/s' },
        anchorName: 'WebAssembly.validate',
        anchor: { value: mbps(t.validate.median), unit: 'MB/s' },
        note: `instrument ${(t.instrument.median / 1e3).toFixed(2)} ms (p99 ${(t.instrument.p99 / 1e3).toFixed(1)}), validate ${(t.validate.median / 1e3).toFixed(2)} ms; ${((t.instrument.median / bytes.length) * 700).toFixed(1)} ms per 700 KB; code section alone ${(code / t.instrument.median).toFixed(0)} MB/s${code < bytes.length / 4 ? ' (the rest is custom sections, copied through)' : ''}`,
      }),
    );
  }
  return rows;
};

/**
 * libwabt's own wasm (≈ 600 KB of Emscripten-compiled C++), which the `wabt`
 * package embeds in its JS: captured as the package instantiates it.
 */
async function libwabtWasm(): Promise<Uint8Array> {
  let captured: Uint8Array | undefined;
  const original = WebAssembly.instantiate;
  const spy = (bytes: unknown, imports?: WebAssembly.Imports) => {
    if (!captured && bytes instanceof Uint8Array) captured = new Uint8Array(bytes);
    if (!captured && bytes instanceof ArrayBuffer) captured = new Uint8Array(bytes.slice(0));
    return (original as (b: unknown, i?: WebAssembly.Imports) => Promise<unknown>)(bytes, imports);
  };
  (WebAssembly as { instantiate: unknown }).instantiate = spy;
  try {
    await wabtInit();
  } finally {
    (WebAssembly as { instantiate: unknown }).instantiate = original;
  }
  if (!captured) throw new Error('load bench: could not capture the wasm of the wabt package');
  return captured;
}

/** Size of the code section (id 10): what the instrumenter actually walks. */
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
