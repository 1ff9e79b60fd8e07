// Red review (red7): the instrumenter writes into one growable buffer, and a cost patched with
// `patchSleb5(w.buf, writeCheck(...), cost)` read `w.buf` before the check was written. When writing the
// check grew (moved) the buffer, the cost went into the old one and the check kept its placeholder, 0:
// a `table.set` (1024 fuel: 50-150 ns in engines) or an Extism accessor (100) at that point ran free, in
// a loop too. The type section's count was lost the same way (an invalid module at the first large load
// of a process). A module decides where growth falls (the buffer starts at 1.125x its size), so each
// module below is larger than the last: every instrumentation in this file grows the buffer.
import { describe, expect, it } from 'vitest';
import { ENGINE_CALL_FUEL } from '../../host/sandbox/instrument/opcodes.js';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { paddedConsts } from '../xrt/wat.js';

const leb = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...leb(Math.floor(n / 0x80))]);
const section = (id: number, body: number[]) => [id, ...leb(body.length), ...body];
const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

/** One function of `n` × `table.set 0 (i32.const i) (ref.null func)`, exported as "run". */
function tableSets(n: number): Uint8Array {
  const unit = [0x41, 0x00, 0xd0, 0x70, 0x26, 0x00]; // i32.const 0; ref.null func; table.set 0
  const code = [0x00, ...Array.from({ length: n }, () => unit).flat(), 0x0b];
  return new Uint8Array([
    ...header,
    ...section(1, [1, 0x60, 0, 0]),
    ...section(3, [1, 0]),
    ...section(4, [1, 0x70, 0x00, 1]),
    ...section(7, [1, 3, ...new TextEncoder().encode('run'), 0, 0]),
    ...section(10, [1, ...leb(code.length), ...code]),
  ]);
}

describe('the instrumenter, when its output buffer grows', () => {
  it('gives every table.set check its cost (none left at 0), in fast and exact mode', () => {
    // Each unit is 6 bytes in, ~25 out: several doublings per module, at shifting offsets.
    // (Up to 84k: exact mode then writes ~4.7 MB of one function; V8 refuses a function past 7.6 MB.)
    for (let n = 3_000, round = 0; round < 5; round++, n = Math.ceil(n * 2.3)) {
      for (const metering of ['fast', 'exact'] as const) {
        const { bytes } = instrument(tableSets(n), { maxMemoryPages: 1, metering });
        expect(WebAssembly.validate(bytes), `${n} table.set, ${metering}: ${bytes.length} bytes`).toBe(true);
        expect(paddedConsts(bytes, ENGINE_CALL_FUEL), `${n} table.set, ${metering}`).toBe(n);
      }
    }
  });

  it('writes the type section count after appending its types (a module that is mostly function types)', () => {
    for (let n = 2_000, round = 0; round < 5; round++, n = Math.ceil(n * 2.3)) {
      // n distinct types of 20-29 i32 params and one result, one function: fast mode appends a variant of
      // each type, about doubling the section, which is nearly the whole module.
      const types = Array.from({ length: n }, (_, i) => [0x60, 20 + (i % 10), ...Array(20 + (i % 10)).fill(0x7f), 1, [0x7f, 0x7e, 0x7d, 0x7c][Math.floor(i / 10) % 4]!]);
      const body = [0x00, 0x0b];
      const wasm = new Uint8Array([
        ...header,
        ...section(1, [...leb(n + 1), ...types.flat(), 0x60, 0, 0]),
        ...section(3, [1, ...leb(n)]),
        ...section(10, [1, body.length, ...body]),
      ]);
      expect(WebAssembly.validate(wasm)).toBe(true);
      expect(WebAssembly.validate(instrument(wasm, { maxMemoryPages: 1 }).bytes), `${n} types`).toBe(true);
    }
  });
});
