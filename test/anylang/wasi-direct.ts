// A WASI instance driven by direct calls on a fresh one-page memory, for tests of single imports.
import { Meter } from '../../host/sandbox/meter.js';
import { Wasi } from '../../host/sandbox/wasi/preview1.js';

export type WasiFn = (...args: Array<number | bigint>) => number;

export function directWasi(): { fns: Record<string, WasiFn>; view: DataView } {
  const memory = new WebAssembly.Memory({ initial: 1 });
  const meter = new Meter({ deadline: performance.now() + 5_000, timeoutMs: 5_000, fuel: 1e12, signal: undefined }, 10_000, null);
  const wasi = new Wasi({ args: [], env: [], preopens: [] }, { meter: () => meter, log: () => {} });
  wasi.attach(memory);
  return { fns: wasi.imports() as unknown as Record<string, WasiFn>, view: new DataView(memory.buffer) };
}
