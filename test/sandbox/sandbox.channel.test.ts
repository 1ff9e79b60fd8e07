// Messages of any size between a sandbox worker and the host (flood.wat):
// within their caps they arrive whole (sent in parts through the channel),
// past them the call fails with OUTPUT_TOO_LARGE, the same as in-thread.
// Then: a worker that is reported terminated uses no CPU afterwards, and a
// process whose worker timed out can exit.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../../host/sandbox/index.js';
import type { Limits, SandboxOptions } from '../../host/sandbox/types.js';
import { DEFAULT_GRACE_MS, setWorkerGraceMs } from '../../host/sandbox/worker/host.js';
import { hostile, str, u64 } from './sandbox-helpers.js';

const MiB = 1 << 20;
const ROOMY: Partial<Limits> = { timeoutMs: 10_000, fuel: 1e15 };

async function flood(isolation: SandboxOptions['isolation'], limits: Partial<Limits> = {}) {
  const progress: string[] = [];
  const logs: string[] = [];
  const sandbox = await createSandbox(await hostile('flood'), {
    isolation,
    limits: { ...ROOMY, ...limits },
    host: { onProgress: (m) => progress.push(m), onLog: (_level, m) => logs.push(m) },
  });
  return { sandbox, progress, logs };
}

for (const isolation of ['in-thread', 'worker'] as const) {
  describe(`big messages, ${isolation}`, () => {
    it('a 4 MiB progress message within maxProgressBytes arrives whole; past it, OUTPUT_TOO_LARGE', async () => {
      const { sandbox, progress } = await flood(isolation, { maxProgressBytes: 8 * MiB, maxMemoryPages: 256 });
      const outcome = await sandbox.call('progress_big', u64(4 * MiB));
      expect(outcome.ok && str(outcome.output)).toBe('aaaz');
      expect(progress).toHaveLength(1);
      expect(progress[0]!.length).toBe(4 * MiB);
      expect(progress[0]!.endsWith('az')).toBe(true);
      const over = await sandbox.call('progress_big', u64(8 * MiB + 8));
      expect(!over.ok && over.failure).toMatchObject({ code: 'OUTPUT_TOO_LARGE', message: /maxProgressBytes \(8388608\)/ });
      await sandbox.close();
    });

    it('many progress messages arrive in order; their total is capped', async () => {
      const { sandbox, progress } = await flood(isolation, { maxProgressBytes: 4 * MiB });
      expect((await sandbox.call('progress_many', u64(3_000))).ok).toBe(true);
      expect(progress).toHaveLength(3_000);
      const over = await sandbox.call('progress_many', u64(5_000));
      expect(!over.ok && over.failure.code).toBe('OUTPUT_TOO_LARGE');
      await sandbox.close();
    });

    it('an output of 6 MiB within maxOutputBytes arrives whole; past it, OUTPUT_TOO_LARGE', async () => {
      const { sandbox } = await flood(isolation, { maxOutputBytes: 8 * MiB, maxMemoryPages: 512 });
      const outcome = await sandbox.call('output_big', u64(6 * MiB));
      expect(outcome.ok && outcome.output.byteLength).toBe(6 * MiB);
      expect(outcome.ok && str(outcome.output.subarray(6 * MiB - 2))).toBe('az');
      const over = await sandbox.call('output_big', u64(8 * MiB + 8));
      expect(!over.ok && over.failure.code).toBe('OUTPUT_TOO_LARGE');
      await sandbox.close();
    });

    it('a log line within maxLogBytes arrives whole; a bigger one is dropped and counted, never silently', async () => {
      const { sandbox, logs } = await flood(isolation, { maxLogBytes: 512 * 1024 });
      expect((await sandbox.call('log_big', u64(400_000))).ok).toBe(true);
      expect(logs.map((l) => l.length)).toEqual([400_000]);
      logs.length = 0;
      expect((await sandbox.call('log_big', u64(4 * MiB))).ok).toBe(true);
      expect(logs).toEqual(['1 more log lines dropped (limits per call: 1000 lines, 524288 bytes, maxLogBytes)']);
      await sandbox.close();
    });
  });
}

describe('terminated workers', () => {
  afterEach(() => setWorkerGraceMs(DEFAULT_GRACE_MS));

  it.each([
    ['infinite-loop', 'run'],
    ['swallow-stop', 'swallow_twice'],
    ['host-call-flood', 'run'],
    ['memory-grow-spin', 'run'],
    ['bulk-spin', 'memory_fill'],
    ['bulk-spin', 'memory_copy'],
  ])('%s: after its worker is terminated, the process uses no CPU', async (fixture, fn) => {
    // The host kills the worker before the worker's own deadline could stop the plugin.
    setWorkerGraceMs(-9_000);
    const sandbox = await createSandbox(await hostile(fixture), { isolation: 'worker', limits: { timeoutMs: 9_100, fuel: 1e15 }, allowExceptions: fixture === 'swallow-stop' });
    for (let i = 0; i < 2; i++) {
      const outcome = await sandbox.call(fn, new Uint8Array(0));
      expect(!outcome.ok && outcome.failure).toMatchObject({ code: 'TIMEOUT', message: /worker was terminated/ });
    }
    // close() returns once every worker it terminated is gone.
    await sandbox.close();
    await new Promise((r) => setTimeout(r, 50));
    const before = process.cpuUsage();
    await new Promise((r) => setTimeout(r, 1_000));
    const used = process.cpuUsage(before);
    // Idle is a few ms; two zombie threads would be ~2000 ms.
    expect((used.user + used.system) / 1000).toBeLessThan(150);
  });

  it('a Node process whose worker plugin timed out exits on its own', async () => {
    const script = fileURLToPath(new URL('../fixtures/hostile/exit-after-timeout.ts', import.meta.url));
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(out).toMatch(/TIMEOUT/);
    expect(code).toBe(0);
    expect(performance.now() - started).toBeLessThan(15_000);
  }, 30_000);
});
