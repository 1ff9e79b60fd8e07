import { describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { fixture } from './instrument-helpers.js';

const opts = { maxMemoryPages: 64 };

/** Runs the instrumenter; returns its output, or the INVALID_WASM error. Anything else fails the test. */
function attempt(bytes: Uint8Array): Uint8Array<ArrayBuffer> | WasmhooksError {
  try {
    return instrument(bytes, opts).bytes;
  } catch (e) {
    if (e instanceof WasmhooksError && e.code === 'INVALID_WASM') return e;
    throw e;
  }
}

function errorOf(bytes: Uint8Array): string {
  const r = attempt(bytes);
  if (!(r instanceof WasmhooksError)) throw new Error('expected INVALID_WASM');
  return r.message;
}

/** header + type () -> () + one function whose body is `body` (without the locals count). */
function oneFunction(body: number[]): Uint8Array<ArrayBuffer> {
  const code = [0x00, ...body];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x04, 0x01, 0x60, 0x00, 0x00,
    0x03, 0x02, 0x01, 0x00,
    0x0a, code.length + 2, 0x01, code.length, ...code,
  ]);
}

describe('malformed input', () => {
  it('names the problem for bad headers', () => {
    expect(errorOf(new Uint8Array([1, 2, 3]))).toMatch(/shorter than the 8-byte header/);
    expect(errorOf(new Uint8Array([0x00, 0x61, 0x73, 0x6e, 1, 0, 0, 0]))).toMatch(/bad magic/);
    expect(errorOf(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x0d, 0x00, 0x01, 0x00]))).toMatch(/components are not supported/);
  });

  it('reports a section size that runs past the end, with its offset', () => {
    expect(errorOf(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 0x01, 0x7f, 0x00]))).toMatch(
      /section 1: size 127 runs past the end .* at byte offset 8/,
    );
  });

  it('reports a garbage opcode with the function index and byte offset', () => {
    const ok = oneFunction([0x41, 0x01, 0x1a, 0x0b]);
    expect(WebAssembly.validate(ok)).toBe(true);
    expect(attempt(ok)).toBeInstanceOf(Uint8Array);
    expect(errorOf(oneFunction([0xc5, 0x0b]))).toMatch(/function 0 \(code entry 0\): unknown opcode 0xc5 at byte offset 23/);
    expect(errorOf(oneFunction([0xfc, 0x30, 0x0b]))).toMatch(/unknown opcode 0xfc 48/);
    expect(errorOf(oneFunction([0xfd, 0x9a, 0x01, 0x0b]))).toMatch(/unknown opcode 0xfd 154/);
    expect(errorOf(oneFunction([0x41, 0x01]))).toMatch(/unexpected end|no final end/);
  });

  it('refuses a body that reaches a global the module does not have (it would reach the fuel global)', () => {
    expect(errorOf(oneFunction([0x42, 0x00, 0x24, 0x00, 0x0b]))).toMatch(/global index out of range/);
  });

  it('refuses a module that is already instrumented', async () => {
    const once = instrument(await fixture('fuel'), opts).bytes;
    expect(errorOf(once)).toMatch(/reserved module "wasmhooks:sandbox"/);
  });

  it('every truncation of a real module is refused cleanly', async () => {
    for (const name of ['control', 'features']) {
      const wasm = await fixture(name);
      const accepted: number[] = [];
      for (let n = 0; n < wasm.length; n++) if (attempt(wasm.subarray(0, n)) instanceof Uint8Array) accepted.push(n);
      // Only a cut between sections leaves a well-formed (shorter) module.
      expect(accepted).toEqual(sectionBoundaries(wasm).filter((n) => n < wasm.length));
    }
  });

  it('random corruption never crashes or hangs, and a valid result implies a valid input', async () => {
    const wasm = await fixture('control');
    let seed = 0x2545f491;
    const rand = (n: number): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    let accepted = 0;
    for (let i = 0; i < 3000; i++) {
      const bad = wasm.slice();
      for (let k = 1 + rand(3); k > 0; k--) bad[8 + rand(bad.length - 8)] = rand(256);
      const out = attempt(bad);
      if (out instanceof Uint8Array) {
        accepted++;
        if (WebAssembly.validate(out)) expect(WebAssembly.validate(bad)).toBe(true);
      }
    }
    expect(accepted).toBeGreaterThan(100);
  });
});

function sectionBoundaries(wasm: Uint8Array): number[] {
  const out = [8];
  let p = 8;
  while (p < wasm.length) {
    p++;
    let size = 0;
    for (let shift = 0; ; shift += 7) {
      const b = wasm[p++]!;
      size |= (b & 0x7f) << shift;
      if (!(b & 0x80)) break;
    }
    p += size;
    out.push(p);
  }
  return out;
}
