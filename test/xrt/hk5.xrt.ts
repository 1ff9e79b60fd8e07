// hk5 on Node, Deno and Bun against the build. Each fails on the code before.
// 1. Loading a large plugin froze the event loop: the instrumenter (and the validation before it) ran on the
//    caller's thread, about 30–65 ms per MB (a 57 MB module: 1.8 s in which no SSE stream, control answer or
//    other session moved). A module of 512 KiB or more is now validated and instrumented in a worker: the loop's
//    worst stall while a 30 MB module loads stays far below the inline figure, and the bytes are the same.
// Vitest twins: test/sandbox/hk5.offthread.test.ts.
import assert from 'node:assert/strict';
import * as dist from '../../dist/index.js';
import { bigModule, brokenBigModule, worstStall } from '../fixtures/big-module.js';

const runtime = 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : 'node';
/** Generous: inline, a 30 MB module held the loop 0.9–2 s on the 2-core machine; off-thread it is tens of ms. */
const STALL_LIMIT_MS = 300;

async function bigLoadStall(mb: number): Promise<void> {
  const bytes = bigModule(mb * 1e6 + Math.floor(Math.random() * 1000)); // not in the compiled cache
  const inline = await worstStall(async () => dist.instrument(bytes, { maxMemoryPages: 256 }));
  const raw = await worstStall(() => dist.createRawSandbox(bytes, { name: 'big' }));
  const sandbox = await worstStall(() => dist.createSandbox(bytes, { name: 'big' }));
  await sandbox.value.close();
  console.log(
    `    ${runtime} ${mb} MB: worst loop stall inline instrument ${inline.stallMs.toFixed(0)} ms, createRawSandbox ${raw.stallMs.toFixed(0)} ms, createSandbox ${sandbox.stallMs.toFixed(0)} ms`,
  );
  assert.ok(raw.stallMs < STALL_LIMIT_MS, `createRawSandbox stalled the loop ${raw.stallMs.toFixed(0)} ms`);
  assert.ok(sandbox.stallMs < STALL_LIMIT_MS, `createSandbox stalled the loop ${sandbox.stallMs.toFixed(0)} ms`);
  // Large enough that inline work dwarfs the rest of a load: off the thread, the stall is a fraction of it.
  if (mb >= 30) assert.ok(raw.stallMs < inline.stallMs / 2, `createRawSandbox stalled ${raw.stallMs.toFixed(0)} ms, inline ${inline.stallMs.toFixed(0)} ms`);
}

async function sameBytes(): Promise<void> {
  const bytes = bigModule(3e6);
  const plan = { maxMemoryPages: 64, maxTableElements: 1000 };
  const inline = dist.instrument(bytes, plan).bytes;
  const offThread = await dist.instrumentOffThread(bytes, plan);
  assert.equal(offThread.byteLength, inline.byteLength);
  assert.ok(offThread.every((b, i) => b === inline[i]), 'the worker made other bytes than instrument()');
}

async function sameRefusal(): Promise<void> {
  const bytes = brokenBigModule(2e6);
  const error = await dist.createSandbox(bytes, { name: 'broken.wasm' }).then(
    () => undefined,
    (e: unknown) => e as { code?: string; message: string },
  );
  assert.equal(error?.code, 'INVALID_WASM');
  assert.match(error.message, /^invalid wasm: function \d+ \(code entry \d+\): unknown opcode 0xff at byte offset \d+/);
  const wide = await dist.createRawSandbox(bigModule(1e6, 3_000), { name: 'wide' }).then(
    () => undefined,
    (e: unknown) => e as { code?: string; message: string },
  );
  assert.equal(wide?.code, 'INVALID_WASM');
  assert.match(wide.message, /3000 exports, above the sandbox's cap of 2048/);
}

async function abortEnds(): Promise<void> {
  const controller = new AbortController();
  const started = performance.now();
  const loading = dist.createSandbox(bigModule(40e6), { name: 'big', signal: controller.signal });
  setTimeout(() => controller.abort(), 100);
  const error = await loading.then(
    () => undefined,
    (e: unknown) => e as { code?: string; message: string },
  );
  assert.equal(error?.code, 'LOAD_FAILED', String(error?.message));
  assert.match(error.message, /big: the load was aborted/);
  assert.ok(performance.now() - started < 5_000, 'the abort did not end the load');
}

export const scenarios: Record<string, () => Promise<void>> = {
  'loading a 1 MB module leaves the event loop free': () => bigLoadStall(1),
  'loading a 10 MB module leaves the event loop free': () => bigLoadStall(10),
  'loading a 30 MB module leaves the event loop free': () => bigLoadStall(30),
  'the worker instruments byte for byte as instrument() does': sameBytes,
  'an invalid or over-cap large module is refused with the inline error': sameRefusal,
  'an aborted large load ends with LOAD_FAILED': abortEnds,
};
