// Red review (red4): a stranger's JSON Schema (WASM describe, MCP tools/list) may not make the host backtrack.
// `pattern: "^(a+)+$"` against a's and a "!" ran JavaScript's backtracking RegExp on the event loop: 27 a's
// took seconds, 40 took hours. Patterns now run on RE2.
import { describe, expect, it } from 'vitest';
import { jsonSchemaChecker } from '../../host/tools/define.js';

const evil = 'a'.repeat(27) + '!';
const timed = <T>(f: () => T): [T, number] => {
  const t = performance.now();
  const v = f();
  return [v, performance.now() - t];
};

describe('JSON Schema patterns from plugins and MCP servers run in linear time', () => {
  it('pattern: a catastrophic-backtracking pattern is refused quickly, and still means what it says', () => {
    const check = jsonSchemaChecker({ type: 'object', properties: { q: { type: 'string', pattern: '^(a+)+$' } }, required: ['q'] });
    const [result, ms] = timed(() => check({ q: evil }));
    expect(result.ok).toBe(false);
    expect(ms).toBeLessThan(1000);
    expect(check({ q: 'aaaa' }).ok).toBe(true);
    const [long] = timed(() => check({ q: 'a'.repeat(100_000) + '!' }));
    expect(long.ok).toBe(false);
  });

  it('patternProperties keys (with and without additionalProperties: false) are on RE2 too', () => {
    for (const additionalProperties of [true, false]) {
      const check = jsonSchemaChecker({ type: 'object', patternProperties: { '^(a+)+$': { type: 'number' } }, additionalProperties });
      const [result, ms] = timed(() => check({ [evil]: 1 }));
      expect(ms).toBeLessThan(1000);
      expect(result.ok).toBe(additionalProperties);
      expect(check({ aaa: 1 }).ok).toBe(true);
      expect(check({ aaa: 'x' }).ok).toBe(false);
    }
  });

  it('JSON Schema meaning is kept: unanchored, escapes, formats; the global RegExp is left as it was', () => {
    const native = RegExp;
    const check = jsonSchemaChecker({
      type: 'object',
      properties: { s: { type: 'string', pattern: 'b\\d' }, id: { type: 'string', format: 'uuid' }, at: { type: 'string', format: 'date-time' } },
    });
    expect(check({ s: 'ab1c' }).ok).toBe(true);
    expect(check({ s: 'abc' }).ok).toBe(false);
    expect(check({ id: '123e4567-e89b-12d3-a456-426614174000', at: '2024-01-01T00:00:00Z' }).ok).toBe(true);
    expect(check({ id: 'nope' }).ok).toBe(false);
    expect(RegExp).toBe(native);
    expect(new RegExp('(a+)+').constructor).toBe(native);
  });

  it('a pattern RE2 cannot read, or one past the compile budget, leaves only the object check (fast)', () => {
    for (const pattern of ['^(?=a)(a+)+$', '(a)\\1', 'a{1000}'.repeat(20)]) {
      const check = jsonSchemaChecker({ type: 'object', properties: { q: { type: 'string', pattern } } });
      const [result, ms] = timed(() => check({ q: evil }));
      expect(result.ok).toBe(true);
      expect(ms).toBeLessThan(1000);
      expect(check([]).ok).toBe(false);
    }
    expect(RegExp.name).toBe('RegExp');
  });

  // Red review (red4): zod checks every branch, and a $ref cycle that applies to the same value recursed until the
  // stack ran out. A tiny schema could cost hours per check.
  const chain = (depth: number) => {
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < depth; i++) defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    defs[`d${depth}`] = { type: 'number' };
    return { type: 'object', properties: { q: { $ref: '#/$defs/d0' } }, $defs: defs };
  };

  it('a schema whose $refs expand exponentially is not checked beyond the object (it took 4.5 s at depth 20)', () => {
    const check = jsonSchemaChecker(chain(30));
    const [result, ms] = timed(() => check({ q: 'x' }));
    expect(result.ok).toBe(true);
    expect(ms).toBeLessThan(1000);
    // A small chain is still checked.
    expect(jsonSchemaChecker(chain(4))({ q: 'x' }).ok).toBe(false);
    expect(jsonSchemaChecker(chain(4))({ q: 1 }).ok).toBe(true);
  });

  it('a $ref cycle on the same value is not compiled; a recursive structure (through properties/items) is', () => {
    const left = jsonSchemaChecker({ type: 'object', properties: { q: { $ref: '#/$defs/a' } }, $defs: { a: { anyOf: [{ $ref: '#/$defs/a' }, { type: 'number' }] } } });
    expect(left({ q: 'x' }).ok).toBe(true); // threw RangeError out of the tool call before
    const tree = jsonSchemaChecker({ type: 'object', properties: { t: { $ref: '#/$defs/node' } }, $defs: { node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } } } } });
    expect(tree({ t: { kids: [{ kids: [] }] } }).ok).toBe(true);
    expect(tree({ t: { kids: [{ kids: 3 }] } }).ok).toBe(false);
  });

  it('a check that throws (a deep input on a recursive schema) is a refusal, never an exception', () => {
    const tree = jsonSchemaChecker({ type: 'object', properties: { t: { $ref: '#/$defs/node' } }, $defs: { node: { type: 'object', properties: { k: { $ref: '#/$defs/node' } } } } });
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) deep = { k: deep };
    expect(() => tree({ t: deep })).not.toThrow();
  });

  it('schema size x input size is bounded: 5,000 anyOf branches over 1,000 items took 22 s; past the budget the input is not checked', () => {
    const check = jsonSchemaChecker({ type: 'object', properties: { a: { type: 'array', items: { anyOf: Array.from({ length: 2000 }, (_, i) => ({ type: 'string', minLength: i })) } } } });
    const [result, ms] = timed(() => check({ a: Array.from({ length: 1000 }, () => 1) }));
    expect(result.ok).toBe(true);
    expect(ms).toBeLessThan(1000);
    // Within the budget it is checked: about 2,000 nodes leave room for about 100 input values.
    expect(check({ a: [1] }).ok).toBe(false);
    expect(check({ a: ['x'] }).ok).toBe(true);
  });
});
