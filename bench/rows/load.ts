/**
 * Row group 3: plugin load and instrumentation throughput.
 * - loadPlugin (instrument + compile + instantiate + describe) of guard-shell:
 *   "cold" gets bytes never seen before (a fresh custom section each time, so
 *   no compiled code can be reused); "same bytes" loads identical bytes again.
 *   There is no compiled-module cache in host/sandbox yet, so "same bytes" only
 *   shows what V8's in-process reuse of identical modules gives. The anchor is
 *   raw Extism's createPlugin on the same bytes (compile + instantiate).
 * - Instrumentation throughput (MB/s) on the corpus's memory.wasm and
 *   code.wasm, beside WebAssembly.validate on the same bytes.
 */
import createPlugin from '@extism/extism';
import { readFile } from 'node:fs/promises';
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
    { ...samples, rounds: 10 },
  );
  const rows: Row[] = [
    makeRow('load', runtime, {
      what: `loadPlugin guard-shell (${(guard.length / 1e3).toFixed(0)} KB), cold (new bytes)`,
      ours: fig(r.cold, 'ms'),
      anchorName: 'raw Extism createPlugin, new bytes',
      anchor: fig(r.extismCold, 'ms'),
      note: `of which instrument ${(r.instrument.median / 1e3).toFixed(2)} ms, compile ${(r.compile.median / 1e3).toFixed(2)} ms, createSandbox (both + instantiate) ${(r.sandbox.median / 1e3).toFixed(2)} ms (medians); the rest is describe, its decoding and the checks`,
    }),
    makeRow('load', runtime, {
      what: 'loadPlugin guard-shell, same bytes again (no module cache yet)',
      ours: fig(r.same, 'ms'),
      anchorName: 'cold load',
      anchor: fig(r.cold, 'ms'),
    }),
  ];
  for (const name of ['memory.wasm', 'code.wasm']) {
    const bytes = new Uint8Array(await readFile(new URL(`../../../shared/corpus/${name}`, import.meta.url)));
    const t = await compare(
      {
        instrument: () => instrumentOnly(bytes),
        validate: () => WebAssembly.validate(bytes as Uint8Array<ArrayBuffer>),
      },
      { samples: quick ? 10 : 30, warmup: 2, maxMs: quick ? 3_000 : 8_000, rounds: 5 },
    );
    const mbps = (us: number) => bytes.length / us; // bytes per µs = MB/s
    rows.push(
      makeRow('load', runtime, {
        what: `instrumentation throughput, corpus ${name} (${(bytes.length / 1e6).toFixed(2)} MB)`,
        ours: { value: mbps(t.instrument.median), unit: 'MB/s' },
        anchorName: 'WebAssembly.validate',
        anchor: { value: mbps(t.validate.median), unit: 'MB/s' },
        note: `instrument ${(t.instrument.median / 1e3).toFixed(1)} ms (p99 ${(t.instrument.p99 / 1e3).toFixed(1)}), validate ${(t.validate.median / 1e3).toFixed(1)} ms`,
      }),
    );
  }
  return rows;
};
