// red21 item 6: a stranger's tool schema has a node budget (json-schema.ts, 5,000 with $refs written
// out), but enum/const/default/examples values, `required` names and definitions did not count: a
// 100,000-entry enum compiled for ~0.7 s and cost ~350 ms per check (a union of literals zod walks).
// They count now: such a schema is past the budget, left unread (the input is checked to be an object),
// and costs no compile. Old code: each schema below compiled (fromUntrustedJSONSchema returned).
import { describe, expect, it } from 'vitest';
import { jsonSchemaChecker } from '../../host/tools/define.js';
import { fromUntrustedJSONSchema } from '../../host/tools/json-schema.js';

const N = 100_000;
const names = (p: string, n = N) => Array.from({ length: n }, (_, i) => `${p}${i}`);

const OVER: [string, Record<string, unknown>][] = [
  ['a 100,000-entry enum', { type: 'object', properties: { a: { enum: names('v') } } }],
  ['a 100,000-name required list', { type: 'object', required: names('k') }],
  ['100,000 examples', { type: 'object', properties: { a: { type: 'string', examples: names('v') } } }],
  ['a 100,000-item default', { type: 'object', properties: { a: { type: 'array', default: names('v') } } }],
  ['a 100,000-key const', { type: 'object', properties: { a: { const: Object.fromEntries(names('k').map((k, i) => [k, i])) } } }],
  ['a nested enum hidden in a const of objects', { type: 'object', properties: { a: { const: [{ deep: names('v', 6_000) }] } } }],
  ['20,000 unused definitions', { type: 'object', $defs: Object.fromEntries(names('d', 20_000).map((d) => [d, { type: 'string' }])) }],
  ['a type list of 6,000 entries', { type: 'object', properties: { a: { type: Array.from({ length: 6_000 }, () => 'string') } } }],
];

describe('red21: enum, const, default, examples, required and definitions count toward the schema budget', () => {
  it.each(OVER)('%s is past the budget', (_, schema) => {
    expect(() => fromUntrustedJSONSchema(schema)).toThrowError(/more than 5000 nodes/);
  });

  it('a schema past the budget is not compiled: its checker takes any object', () => {
    const check = jsonSchemaChecker(OVER[0]![1]);
    expect(check({ a: 'not in the enum' }).ok).toBe(true);
    expect(check('not an object').ok).toBe(false);
  });

  it('schemas as tools write them still compile and check', () => {
    const check = jsonSchemaChecker({
      type: 'object',
      required: ['mode', 'path'],
      properties: { mode: { enum: names('m', 500), default: 'm0', examples: ['m1', 'm2'] }, path: { type: 'string', const: '/tmp/x' } },
      $defs: { unused: { type: 'string' } },
    });
    expect(check({ mode: 'm42', path: '/tmp/x' }).ok).toBe(true);
    expect(check({ mode: 'nope', path: '/tmp/x' }).ok).toBe(false);
    expect(check({ mode: 'm1' }).ok).toBe(false);
  });
});
