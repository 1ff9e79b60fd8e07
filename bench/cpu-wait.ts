// CPU a sandbox burns while it waits, on the runtime that runs this file
// (tsx, `deno run -A`, `bun run`), against a build (`dist/` by default):
//   sleep  a WASI plugin's 50 ms sleep (poll_oneoff), in-thread and in a worker:
//          process CPU per call, median and range of 15 calls
//   idle   a loaded worker plugin doing nothing for 10 s: process CPU, 3 runs,
//          beside 10 s of the same process before any sandbox
// Usage: bench/cpu-wait.ts sleep|idle [dist dir]
// Before/after: build the old and the new tree to two dist dirs and run them
// interleaved; the figures are in CHANGELOG.md / the closing note, not asserted.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [what = 'sleep', dist = 'dist'] = process.argv.slice(2);
const { createSandbox } = (await import(pathToFileURL(resolve(dist, 'index.js')).href)) as typeof import('../dist/index.js');
const guard = new Uint8Array(await readFile(new URL('../test/fixtures/wasi/build/guard.wasm', import.meta.url)));
const runtime = 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : 'node';

const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const summary = (xs: number[]): string => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${s[Math.floor(s.length / 2)]!.toFixed(2)} ms (range ${s[0]!.toFixed(2)}–${s.at(-1)!.toFixed(2)})`;
};

if (what === 'sleep') {
  for (const isolation of ['in-thread', 'worker'] as const) {
    const s = await createSandbox(guard, { wasi: true, isolation, limits: { timeoutMs: 1_000 } });
    const input = new TextEncoder().encode('50');
    await s.call('sleep_ms', input);
    const cpu: number[] = [];
    const wall: number[] = [];
    for (let i = 0; i < 15; i++) {
      const before = process.cpuUsage();
      const started = performance.now();
      const out = await s.call('sleep_ms', input);
      if (!out.ok) throw new Error(`${out.failure.code}: ${out.failure.message}`);
      wall.push(performance.now() - started);
      cpu.push(cpuMs(before));
    }
    await s.close();
    console.log(`${runtime} ${dist} sleep 50 ms ${isolation}: cpu ${summary(cpu)}; wall ${summary(wall)}`);
  }
} else {
  const idle = async (): Promise<number> => {
    const before = process.cpuUsage();
    await new Promise((r) => setTimeout(r, 10_000));
    return cpuMs(before);
  };
  // The anchor: this process with no sandbox (the runtime's own idle cost).
  const baseline = await idle();
  const s = await createSandbox(guard, { wasi: true, isolation: 'worker', limits: { timeoutMs: 1_000 } });
  await s.call('sleep_ms', new TextEncoder().encode('1'));
  await new Promise((r) => setTimeout(r, 1_000)); // past the first call's own tail (compilation, collection)
  const cpu: number[] = [];
  for (let i = 0; i < 3; i++) cpu.push(await idle());
  await s.close();
  console.log(`${runtime} ${dist} idle worker 10 s: cpu ${summary(cpu)}; no sandbox ${baseline.toFixed(2)} ms`);
}
process.exit(0);
