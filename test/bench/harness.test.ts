import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compare, percentile, sample, stats } from '../../bench/harness.js';
import { makeRow } from '../../bench/rows/row.js';
import { table } from '../../bench/table.js';

const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;

describe('bench harness statistics', () => {
  it('median of odd and even counts, order-independent', () => {
    expect(stats([5, 1, 3]).median).toBe(3);
    expect(stats([4, 1, 3, 2]).median).toBe(2.5);
    expect(stats([7]).median).toBe(7);
    expect(stats([]).median).toBeNaN();
  });

  it('p99 is the nearest-rank 99th percentile', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted
    expect(stats(hundred).p99).toBe(99);
    const thousand = Array.from({ length: 1000 }, (_, i) => i + 1);
    expect(stats(thousand).p99).toBe(990);
    expect(percentile([1, 2, 3], 0.99)).toBe(3);
    expect(percentile([1, 2, 3], 0)).toBe(1);
    const s = stats([1, 2, 3, 4, 100]);
    expect([s.min, s.max, s.mean, s.n]).toEqual([1, 100, 22, 5]);
  });

  it('sample takes the samples asked for, in µs per call, batched', async () => {
    let calls = 0;
    const got = await sample(() => void calls++, { warmup: 3, samples: 7, batch: 4 });
    expect(got).toHaveLength(7);
    expect(calls).toBe(3 + 7 * 4);
    for (const us of got) expect(us).toBeGreaterThanOrEqual(0);
  });

  it('compare tells a slow task from a fast one, awaiting promises', async () => {
    const wait = (ms: number) => () => new Promise((r) => setTimeout(r, ms));
    const r = await compare({ fast: wait(0), slow: wait(15) }, { samples: 10, warmup: 1, rounds: 2 });
    expect(r.fast.n).toBe(10);
    expect(r.slow.median).toBeGreaterThan(14_000);
    expect(r.slow.median).toBeGreaterThan(r.fast.median);
  });

  it('the cpu clock counts work, not waiting', async () => {
    // Fixed work: its CPU time does not depend on how busy the machine is.
    let sink = 0;
    const spin = () => {
      for (let i = 0; i < 3e7; i++) sink = (sink + i * 7) % 1_000_003;
    };
    const [busy] = await sample(spin, { warmup: 0, samples: 1, clock: 'cpu' });
    const [idle] = await sample(() => new Promise((r) => setTimeout(r, 30)), { warmup: 0, samples: 1, clock: 'cpu' });
    expect(busy).toBeGreaterThan(2_000);
    expect(idle).toBeLessThan(15_000);
    expect(sink).toBeGreaterThanOrEqual(0);
  });

  it('rows compute the ratio across time units and judge the target', () => {
    const row = makeRow('dispatch', 'node', {
      what: 'x',
      ours: { value: 20, unit: 'µs' },
      anchor: { value: 30, unit: 'ms' },
      ratioOf: 'anchor/ours',
      target: { op: 'min', value: 1000 },
    });
    expect(row.ratio).toBe(1500);
    expect(row.pass).toBe(true);
    const miss = makeRow('fuel', 'node', { what: 'y', ours: { value: 13, unit: 'ms' }, anchor: { value: 10, unit: 'ms' }, target: { op: 'max', value: 1.2 } });
    expect(miss.ratio).toBeCloseTo(1.3);
    expect(miss.pass).toBe(false);
    const failed = makeRow('dispatch', 'node', { what: 'z', ours: { value: 1, unit: 'µs' }, anchor: { value: Number.NaN, unit: 'µs' }, target: { op: 'min', value: 2 } });
    expect(failed.ratio).toBeUndefined();
    expect(failed.pass).toBe(false);
  });

  it('a "within" target judges our own figure against value ± tolerance, and the table shows it with p95', () => {
    const target = { op: 'within', value: 50, unit: 'ms', tolerance: 0.2 } as const;
    const at = (value: number) => makeRow('deadline', 'node', { what: 'stop', ours: { value, unit: 'ms', p95: 70 }, target });
    expect([at(40).pass, at(50.8).pass, at(60).pass]).toEqual([true, true, true]);
    expect([at(39.9).pass, at(60.1).pass, at(Number.NaN).pass]).toEqual([false, false, false]);
    // The anchor's ratio is informative only: the target is on the figure.
    const slow = makeRow('deadline', 'node', { what: 'stop', ours: { value: 75, unit: 'ms' }, anchor: { value: 75, unit: 'ms' }, target });
    expect(slow.ratio).toBe(1);
    expect(slow.pass).toBe(false);
    expect(table([at(50.8)]).split('\n')[2]).toBe('| deadline | stop | 50.8 ms (p95 70.0) | — | — | 50.0 ms ± 20% | pass | node |');
    expect(() => makeRow('deadline', 'node', { what: 'x', ours: { value: 1, unit: 'µs' }, target })).toThrow(/target in ms/);
  });
});

describe('bench/run.ts', () => {
  it('--only bus --quick --json prints one JSON result with the expected fields and writes it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bench-'));
    try {
      const out = join(dir, 'results.json');
      const { stdout } = await run('node', ['--import', 'tsx', 'bench/run.ts', '--only', 'bus', '--quick', '--json', '--out', out], {
        cwd: root,
        timeout: 18_000,
      });
      const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown> & { rows: Record<string, unknown>[] };
      expect(result).toMatchObject({ quick: true, failures: [], machine: { cores: expect.any(Number), runtime: expect.stringMatching(/^node v/) } });
      expect(result.rows.map((r) => r['what'])).toEqual([
        'publish + delivery per event, 1 subscriber',
        'publish + delivery per event, 4 subscribers',
        'loop iteration with one stalled subscriber (model turn + 1 tool)',
      ]);
      for (const r of result.rows) {
        expect(r).toMatchObject({ group: 'bus', runtime: expect.any(String), ours: { value: expect.any(Number), unit: expect.any(String) } });
        expect(r['ratio']).toBeGreaterThan(0);
      }
      expect(result.rows[2]).toMatchObject({ target: { op: 'max', value: 1.1 }, pass: expect.any(Boolean) });
      expect(JSON.parse(await readFile(out, 'utf8'))).toEqual(result);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 20_000);
});
