/**
 * Per-call cost of the sandbox, beside raw Extism, in one run; and how close
 * to its deadline an infinite loop is stopped.
 *
 *   npx tsx bench/sandbox.ts
 *   npx deno run -A --unstable-sloppy-imports bench/sandbox.ts
 *   npx bun run bench/sandbox.ts
 *
 * Rows: raw Extism on the caller's thread (the anchor), our sandboxed
 * in-thread call (instrumented: fuel + deadline + memory cap), our worker
 * isolation, and Extism's own worker mode with `timeoutMs`. Plugins: a tiny
 * WAT echo (test/fixtures/hostile/echo.wat) and the Rust `count_vowels`
 * from ../shared/corpus/code.wasm.
 */
import createPlugin from '@extism/extism';
import { readFile } from 'node:fs/promises';
import wabtInit from 'wabt';
import { createSandbox } from '../host/sandbox/index.js';

const runtime = 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : `node ${process.version}`;
const INPUT = new TextEncoder().encode('hello world');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

/** Median wall time of one `call()`, in µs, after a warm-up. */
async function perCall(call: () => Promise<unknown>, n: number, warm = Math.min(n, 200)): Promise<number> {
  for (let i = 0; i < warm; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call();
    times.push(performance.now() - t);
  }
  return median(times) * 1000;
}

async function echoWasm(): Promise<Uint8Array> {
  const source = await readFile(new URL('../test/fixtures/hostile/echo.wat', import.meta.url), 'utf8');
  const mod = (await wabtInit()).parseWat('echo.wat', source);
  return mod.toBinary({}).buffer;
}

async function extismWorker(bytes: Uint8Array, fn: string): Promise<number | string> {
  try {
    // Extism's default worker flags (--disable-warning) make Deno refuse to
    // start the worker; without them it may start.
    const nodeWorkerArgs = 'Deno' in globalThis ? { execArgv: [] } : {};
    const plugin = await createPlugin({ wasm: [{ data: bytes }] }, { runInWorker: true, timeoutMs: 5_000, nodeWorkerArgs });
    try {
      return await perCall(() => plugin.call(fn, INPUT), 30, 5);
    } finally {
      await plugin.close();
    }
  } catch (error) {
    return `fails: ${(error as Error).message.slice(0, 60)}`;
  }
}

interface Row {
  what: string;
  us: number | string;
}

async function rows(bytes: Uint8Array, fn: string, n: number): Promise<Row[]> {
  const raw = await createPlugin({ wasm: [{ data: bytes }] }, { useWasi: false });
  const limits = { timeoutMs: 1_000, fuel: 1e12 };
  const inThread = await createSandbox(bytes, { limits });
  const worker = await createSandbox(bytes, { limits, isolation: 'worker' });
  // Interleave rounds so drift on a shared machine hits every row alike.
  const raws: number[] = [];
  const ours: number[] = [];
  const workers: number[] = [];
  for (let round = 0; round < 5; round++) {
    raws.push(await perCall(() => raw.call(fn, INPUT), n));
    ours.push(await perCall(() => inThread.call(fn, INPUT), n));
    workers.push(await perCall(() => worker.call(fn, INPUT), Math.ceil(n / 4)));
  }
  await Promise.all([raw.close(), inThread.close(), worker.close()]);
  return [
    { what: 'raw Extism, in-thread (anchor)', us: median(raws) },
    { what: 'wasmhooks sandbox, in-thread', us: median(ours) },
    { what: 'wasmhooks sandbox, worker', us: median(workers) },
    { what: 'Extism runInWorker + timeoutMs', us: await extismWorker(bytes, fn) },
  ];
}

function print(title: string, table: Row[]): void {
  const anchor = table[0]!.us as number;
  console.log(`\n${title} [${runtime}]`);
  console.log('| what | median µs/call | × raw |\n|---|---:|---:|');
  for (const { what, us } of table) {
    const cell = typeof us === 'number' ? us.toFixed(1) : us;
    const ratio = typeof us === 'number' ? (us / anchor).toFixed(2) : '—';
    console.log(`| ${what} | ${cell} | ${ratio} |`);
  }
}

async function deadlinePrecision(isolation: 'in-thread' | 'worker'): Promise<string> {
  const sandbox = await createSandbox(await echoWasm(), {
    isolation,
    limits: { timeoutMs: 50, fuel: 1e15 },
    quarantine: { maxConsecutiveFailures: 1_000 },
  });
  const times: number[] = [];
  for (let i = 0; i < 11; i++) {
    const t = performance.now();
    await sandbox.call('spin', new Uint8Array(0));
    times.push(performance.now() - t);
  }
  await sandbox.close();
  times.sort((a, b) => a - b);
  return `median ${median(times).toFixed(1)} ms (min ${times[0]!.toFixed(1)}, max ${times.at(-1)!.toFixed(1)})`;
}

const echo = await echoWasm();
print('tiny WAT echo, "hello world"', await rows(echo, 'run', 2_000));
const code = new Uint8Array(await readFile(new URL('../../shared/corpus/code.wasm', import.meta.url)));
print('Rust count_vowels (corpus code.wasm)', await rows(code, 'count_vowels', 1_000));
console.log(`\ninfinite loop, timeoutMs 50 [${runtime}]`);
console.log(`| in-thread | ${await deadlinePrecision('in-thread')} |`);
console.log(`| worker | ${await deadlinePrecision('worker')} |`);
process.exit(0);
