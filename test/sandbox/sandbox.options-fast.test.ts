// resolveOptions takes options with nothing to check (loadPlugin's, for a plugin loaded without
// options) without building the schema (host/sandbox/options.ts). It may only skip the schema for
// what the schema accepts, and must give what the schema's reading gives.
import { describe, expect, it, vi } from 'vitest';
import { LIMIT_KEYS, SCHEMA_KEYS, resolveOptions, sandboxOptionsSchema } from '../../host/sandbox/options.js';
import type { SandboxOptions } from '../../host/sandbox/types.js';

/** What resolveOptions gives when the schema reads `options` (the fast path cannot be taken: `metering` is set). */
const viaSchema = (options: object) => resolveOptions({ ...options, metering: 'fast' } as SandboxOptions);

const hidden = (key: string, value: unknown) => Object.defineProperty({}, key, { value, enumerable: false });

describe('sandbox options with nothing to check', () => {
  it('know the keys the schema reads', () => {
    expect([...SCHEMA_KEYS].sort()).toEqual(Object.keys(sandboxOptionsSchema().shape).sort());
    const limits = sandboxOptionsSchema().shape.limits.unwrap();
    expect([...LIMIT_KEYS].sort()).toEqual(Object.keys(limits.shape).sort());
  });

  it('resolve as the schema resolves them', () => {
    const host = { onLog: () => {} };
    for (const options of [
      {},
      { name: 'p' },
      { name: 'p', limits: {}, isolation: 'in-thread', allowExceptions: false, config: {}, host },
      { name: 'q', isolation: 'worker', allowExceptions: true, limits: Object.create(null) as object },
      { name: undefined, limits: undefined, config: undefined, quarantine: undefined },
      { hostFunctions: {}, onHealth: () => {} },
    ]) {
      expect(resolveOptions(options as SandboxOptions), JSON.stringify(options)).toStrictEqual(viaSchema(options));
    }
  });

  it('leave everything with something to check to the schema, which refuses what it refuses', () => {
    for (const options of [
      { name: 1 },
      { isolation: 'elsewhere' },
      { allowExceptions: 'yes' },
      { limits: { timeoutMs: -1 } },
      { limits: hidden('timeoutMs', -1) },
      { limits: [] },
      { config: { a: 1 } },
      { config: hidden('a', 1), allowedHosts: ['example.com'] },
      { allowedHosts: ['example.com'] },
      { allowedPaths: { '/': '/' } },
      { metering: 'slow' },
      { quarantine: { backoffMs: -1 } },
      { wasi: 'yes' },
      [],
    ]) {
      expect(sandboxOptionsSchema().safeParse(options).success, JSON.stringify(options)).toBe(false);
      expect(() => resolveOptions(options as SandboxOptions), JSON.stringify(options)).toThrow(/invalid sandbox options/);
    }
  });

  it('do not go through the schema (loadPlugin\'s options for a plugin loaded without options)', () => {
    const parse = vi.spyOn(sandboxOptionsSchema(), 'safeParse');
    try {
      resolveOptions({ name: 'guard-shell', limits: {}, isolation: 'in-thread', allowExceptions: false, config: {}, host: {} });
      expect(parse).not.toHaveBeenCalled();
      resolveOptions({ name: 'guard-shell', limits: { fuel: 5 } });
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('use the values they checked, not a second reading (a getter or proxy that changes its answer)', () => {
    // Each key is read once: a getter passes the check with one value and would be spread with another.
    const flip = <T, U>(first: T, then: U) => {
      let reads = 0;
      return { get: () => (reads++ === 0 ? first : then), enumerable: true };
    };
    const options = Object.defineProperties({} as SandboxOptions, {
      limits: flip({}, { fuel: -5, timeoutMs: Number.NaN, maxMemoryPages: 1e9 }),
      isolation: flip('in-thread', 'elsewhere'),
      name: flip('p', { not: 'a string' }),
      allowExceptions: flip(false, 'yes'),
    });
    const resolved = resolveOptions(options);
    expect(resolved.limits).toStrictEqual(resolveOptions({}).limits);
    expect(resolved).toMatchObject({ isolation: 'in-thread', name: 'p', allowExceptions: false });
  });

  it('keep the limits given', () => {
    expect(resolveOptions({ limits: { timeoutMs: 7 } }).limits.timeoutMs).toBe(7);
  });
});
