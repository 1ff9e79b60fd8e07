// sameJson: the structural equality that tells an idempotent rewrite from a real one.
import { describe, expect, it } from 'vitest';
import { sameJson } from '../../host/same-json.js';

describe('sameJson', () => {
  it('ignores key order and undefined-valued keys; compares arrays in order', () => {
    expect(sameJson({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1, z: undefined }, { a: 1 })).toBe(true);
    expect(sameJson({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(sameJson({ a: '1' }, { a: 1 })).toBe(false);
    expect(sameJson({ a: [] }, { a: {} })).toBe(false);
    expect(sameJson({ command: 'ls' }, { command: 'rm -rf /' })).toBe(false);
  });

  it('a cyclic or absurdly deep value is "different", never a stack overflow', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    const b: Record<string, unknown> = {};
    b.self = b;
    expect(sameJson(a, b)).toBe(false);
    const nest = (n: number) => {
      let v: unknown = 1;
      for (let i = 0; i < n; i++) v = [v];
      return v;
    };
    const deep = nest(100_000);
    expect(sameJson(deep, deep)).toBe(true); // the same reference
    expect(sameJson(deep, nest(100_000))).toBe(false); // past the depth bound: counted as different (costs a re-check)
    expect(sameJson(nest(60), nest(60))).toBe(true);
  });
});
