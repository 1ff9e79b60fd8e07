// Assembling the hostile WAT fixtures of test/fixtures/hostile/ for sandbox tests.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect } from 'vitest';
import wabtInit from 'wabt';
import { createSandbox } from '../../host/sandbox/index.js';
import type { SandboxedModule } from '../../host/sandbox/types.js';

let wabt: ReturnType<typeof wabtInit> | undefined;

/** The wasm bytes of `test/fixtures/hostile/<name>.wat`. */
export async function hostile(name: string): Promise<Uint8Array> {
  const url = new URL(`../fixtures/hostile/${name}.wat`, import.meta.url);
  const source = await readFile(url, 'utf8');
  const w = await (wabt ??= wabtInit());
  const mod = w.parseWat(`${name}.wat`, source, { exceptions: true });
  try {
    mod.validate();
    return mod.toBinary({}).buffer;
  } finally {
    mod.destroy();
  }
}

export const text = (s: string): Uint8Array => new TextEncoder().encode(s);
export const str = (b: Uint8Array): string => new TextDecoder().decode(b);

/** An 8-byte little-endian u64, as slow-legal.wat reads its iteration count. */
export function u64(n: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(n), true);
  return bytes;
}

/**
 * Calls `run` of a spin that must run out of its fuel (1e9), not into its long deadline: FUEL_EXHAUSTED,
 * within the budget, in under `maxCpuMs` of this process's CPU. Closes the sandbox.
 */
export async function expectFuelNotDeadline(sandbox: SandboxedModule, maxCpuMs: number): Promise<void> {
  try {
    const cpu = process.cpuUsage();
    const out = await sandbox.call('run', new Uint8Array());
    const used = process.cpuUsage(cpu);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.failure.code).toBe('FUEL_EXHAUSTED');
    expect(out.fuelUsed).toBeLessThanOrEqual(1e9);
    expect((used.user + used.system) / 1000).toBeLessThan(maxCpuMs);
  } finally {
    await sandbox.close();
  }
}

/**
 * The hostile `echo` fixture in an in-thread sandbox (2 s deadline) and a worker one (5 s), made
 * before the file's tests and closed after them (sandbox.borrowed and sandbox.mapped tests).
 */
export function echoSandboxes(): { readonly inThread: SandboxedModule; readonly worker: SandboxedModule } {
  const made: { inThread?: SandboxedModule; worker?: SandboxedModule } = {};
  beforeAll(async () => {
    const bytes = await hostile('echo');
    made.inThread = await createSandbox(bytes, { limits: { timeoutMs: 2_000 } });
    made.worker = await createSandbox(bytes, { limits: { timeoutMs: 5_000 }, isolation: 'worker' });
  });
  afterAll(() => Promise.all([made.inThread?.close(), made.worker?.close()]));
  return {
    get inThread() {
      return made.inThread!;
    },
    get worker() {
      return made.worker!;
    },
  };
}
