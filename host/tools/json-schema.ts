/**
 * JSON Schemas from strangers (a WASM plugin's `describe`, an MCP server's
 * `tools/list`) compiled to zod, with their regular expressions on RE2.
 *
 * The input they check comes from the model, or from a hook's rewrite (a
 * plugin's own answer): a schema may not make the host backtrack on it. zod's
 * `fromJSONSchema` turns `pattern` and `patternProperties` into JavaScript
 * `RegExp`s, and `{ "pattern": "^(a+)+$" }` against 40 `a`s and a `!` held
 * the event loop for hours. Here those patterns run on RE2 (re2js: an
 * automaton, linear in the input), within a compile budget checked before
 * RE2 is asked to expand them. A pattern RE2 cannot read (backreferences,
 * lookaround) or past the budget leaves the schema unreadable, as a schema
 * zod cannot read is: the input is then checked only to be an object.
 */
import { RE2JS } from 're2js';
import { z } from 'zod';

/** The longest pattern compiled, in UTF-16 code units. */
const MAX_PATTERN_LENGTH = 1024;
/**
 * The most RE2 expansion a schema's patterns may cost together, estimated before compiling:
 * each pattern's length times one plus the sum of its repetition counts (RE2 copies a repeated
 * atom that many times; re2js itself refuses nested counts past 1000). `^.{1,1000}$` costs 10 010.
 */
const MAX_SCHEMA_PATTERN_COST = 16_384;
/** The most RE2 instructions one compiled pattern may have (the factor of matching's linear cost). */
const MAX_PATTERN_PROGRAM = 8_192;
const COUNTED_REPETITION = /\{(\d+)(?:,(\d*))?\}/g;

/** A pattern's estimated RE2 expansion (over-counts escaped braces: that only refuses more). */
function patternCost(pattern: string): number {
  let counts = 0;
  for (const m of pattern.matchAll(COUNTED_REPETITION)) counts += Math.max(Number(m[1]), m[2] ? Number(m[2]) : 0);
  return pattern.length * (1 + counts);
}

/** Every `pattern` value and `patternProperties` key in a JSON value (iterative: any depth). */
function patternsOf(schema: unknown): Set<string> {
  const found = new Set<string>();
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' && typeof value === 'string') found.add(value);
      if (key === 'patternProperties' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
        for (const p of Object.keys(value)) found.add(p);
      }
      stack.push(value);
    }
  }
  return found;
}

/** An RE2 program for a schema pattern (unanchored, as JSON Schema means it); throws past the limits. */
function compileLinear(pattern: string): RE2JS {
  if (pattern.length > MAX_PATTERN_LENGTH) throw new Error(`a pattern of ${pattern.length} characters (at most ${MAX_PATTERN_LENGTH})`);
  const re = RE2JS.compile(RE2JS.translateRegExp(pattern));
  if (re.programSize() > MAX_PATTERN_PROGRAM) throw new Error(`a pattern of ${re.programSize()} RE2 instructions (at most ${MAX_PATTERN_PROGRAM})`);
  return re;
}

/** The schema's patterns while `fromJSONSchema` runs (it is synchronous); null otherwise. */
let compiling: Map<string, RE2JS> | null = null;
const NativeRegExp = RegExp;

/**
 * What `new RegExp(p)` makes while a schema compiles: for a schema pattern, a
 * RegExp whose matching (`test`, `exec`, and what builds on them) is RE2's;
 * for anything else (zod's own formats), an ordinary one.
 */
class LinearRegExp extends NativeRegExp {
  readonly #re2: RE2JS | undefined;
  readonly #pattern: string | undefined;

  constructor(pattern: string | RegExp, flags?: string) {
    const re2 = typeof pattern === 'string' && !flags ? compiling?.get(pattern) : undefined;
    super(re2 ? '(?:)' : pattern, re2 ? undefined : flags);
    this.#re2 = re2;
    this.#pattern = re2 ? (pattern as string) : undefined;
  }

  override get source(): string {
    return this.#pattern ?? super.source;
  }

  override test(input: string): boolean {
    return this.#re2 ? this.#re2.test(String(input)) : super.test(input);
  }

  override exec(input: string): RegExpExecArray | null {
    return this.#re2 ? (this.#re2.exec(String(input)) as RegExpExecArray | null) : super.exec(input);
  }

  override toString(): string {
    return this.#pattern === undefined ? super.toString() : `/${this.#pattern}/`;
  }
}

/**
 * The most schema nodes one check may visit: the schema's size with every
 * `$ref` written out (a shared definition counts once per place it is used).
 * zod checks every branch of `anyOf`/`allOf`/`oneOf`, so twenty definitions
 * each `anyOf` two references to the next (700 bytes) took 4.5 s to check
 * one string, and thirty would take over an hour.
 */
const MAX_EXPANDED_NODES = 5_000;
/** Keywords whose subschemas apply to a part of the value: recursion through them ends with the input. */
const DESCENDS = new Set(['properties', 'patternProperties', 'additionalProperties', 'items', 'prefixItems', 'additionalItems', 'contains', 'unevaluatedItems', 'unevaluatedProperties', 'dependentSchemas', 'propertyNames']);
/** Keywords holding definitions rather than subschemas that apply here (expanded where a `$ref` uses them). */
const DEFINITIONS = new Set(['$defs', 'definitions']);
/**
 * Keywords holding data, not subschemas: each of their JSON values counts as a node. zod compiles
 * and checks them too: a 100,000-entry `enum` took ~0.7 s to compile and ~350 ms per check (a
 * union of literals), a 100,000-key `const` or `default` seconds to compile; counted as one node.
 */
const DATA = new Set(['enum', 'const', 'default', 'examples']);

/** The JSON values in `value` (iterative, stopping past `max`: the caller throws then). */
function dataNodes(value: unknown, max: number): number {
  const stack: unknown[] = [value];
  let count = 0;
  while (stack.length > 0 && count <= max) {
    const node = stack.pop();
    count++;
    if (typeof node !== 'object' || node === null) continue;
    // Children are taken only while under `max`: a 100,000-key object is not copied to be refused.
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length && count + stack.length <= max; i++) stack.push(node[i]);
    } else {
      for (const key in node) {
        if (count + stack.length > max) break;
        stack.push((node as Record<string, unknown>)[key]);
      }
    }
  }
  return count + stack.length;
}

/**
 * Throws unless checking a value against `schema` visits a bounded number of
 * nodes: its size with `$ref`s expanded (each definition's size computed once)
 * at most MAX_EXPANDED_NODES, and no reference cycle that applies to the same
 * value again (`a: { anyOf: [{ $ref: a }, …] }` recursed until the stack ran
 * out, on every check). A cycle through `properties`, `items` and the like is
 * a recursive structure, bounded by the input's depth: it counts once.
 */
function checkExpansion(root: unknown): number {
  const sizes = new Map<object, number>();
  /** Nodes on the current path, with whether the path descended into the value since each. */
  const path = new Map<object, { descended: boolean }>();
  const resolve = (ref: string): unknown => {
    if (!ref.startsWith('#')) throw new Error(`a $ref outside the schema (${ref.slice(0, 80)})`);
    let node: unknown = root;
    for (const raw of ref.slice(1).split('/').slice(1)) {
      const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
      node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
    }
    if (typeof node !== 'object' || node === null) throw new Error(`a $ref to nothing (${ref.slice(0, 80)})`);
    return node;
  };
  const size = (node: unknown, depth: number): number => {
    if (typeof node !== 'object' || node === null) return 0;
    if (depth > 256) throw new Error('a schema nested more than 256 deep');
    const onPath = path.get(node);
    if (onPath) {
      if (!onPath.descended) throw new Error('a $ref cycle that applies to the same value again');
      return 1;
    }
    const known = sizes.get(node);
    if (known !== undefined) return known;
    path.set(node, { descended: false });
    let total = 1;
    const count = (n: number): void => {
      total += n;
      if (total > MAX_EXPANDED_NODES) throw new Error(`a schema of more than ${MAX_EXPANDED_NODES} nodes with its $refs written out (its enum, const, default and examples values, required names and definitions counted)`);
    };
    const visit = (child: unknown, descends: boolean): void => {
      if (descends) for (const p of path.values()) p.descended = true;
      count(size(child, depth + 1));
    };
    const saved = [...path.values()].map((p) => p.descended);
    if (Array.isArray(node)) {
      // A list of names (`required`, `type`) is data as well: each entry counts.
      for (const item of node) {
        if (typeof item === 'object' && item !== null) visit(item, false);
        else count(1);
      }
    } else {
      for (const [key, value] of Object.entries(node)) {
        // Definitions are read whether used or not: their JSON counts once here, and again where a $ref uses one.
        if (DATA.has(key) || DEFINITIONS.has(key)) count(dataNodes(value, MAX_EXPANDED_NODES - total));
        else if (key === '$ref' && typeof value === 'string') visit(resolve(value), false);
        else if (typeof value === 'object' && value !== null) visit(value, DESCENDS.has(key));
        // A descent applies to this key's subtree only.
        [...path.values()].forEach((p, i) => (p.descended = saved[i] ?? p.descended));
      }
    }
    path.delete(node);
    sizes.set(node, total);
    return total;
  };
  return size(root, 0);
}

/**
 * `z.fromJSONSchema(schema)` with every `pattern` and `patternProperties` on
 * RE2. Throws (like `fromJSONSchema` on a schema it cannot read) when a
 * pattern is not RE2 syntax, the patterns cost more than the budget, or
 * checking a value could visit too many nodes (`checkExpansion`).
 */
export function fromUntrustedJSONSchema(schema: Record<string, unknown>): UntrustedSchema {
  const nodes = checkExpansion(schema);
  return { schema: compile(schema), maxInputNodes: Math.max(1, Math.floor(MAX_CHECK_WORK / nodes)) };
}

/**
 * Schema nodes × input values one check may cost. A value is matched by at most every node of the
 * expanded schema, and a failed `anyOf` branch costs zod a few µs (it builds its issues): 5,000
 * branches over 1,000 array items (a 2 KB input) took 22 s. 200,000 is a fraction of a second.
 */
const MAX_CHECK_WORK = 200_000;

/** A compiled stranger's schema, and the most input values (JSON nodes) it may check. */
export interface UntrustedSchema {
  schema: z.ZodType;
  maxInputNodes: number;
}

/** Whether `value` has at most `max` JSON nodes (counted iteratively, stopping past `max`). */
export function withinNodes(value: unknown, max: number): boolean {
  const stack: unknown[] = [value];
  let count = 0;
  while (stack.length > 0) {
    const node = stack.pop();
    if (++count > max) return false;
    if (typeof node === 'object' && node !== null) {
      for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push(child);
    }
  }
  return true;
}

function compile(schema: Record<string, unknown>): z.ZodType {
  const patterns = new Map<string, RE2JS>();
  let cost = 0;
  for (const p of patternsOf(schema)) {
    cost += patternCost(p);
    if (cost > MAX_SCHEMA_PATTERN_COST) throw new Error(`the schema's patterns would cost RE2 more than ${MAX_SCHEMA_PATTERN_COST} to compile`);
    patterns.set(p, compileLinear(p));
  }
  if (patterns.size === 0) return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  // zod builds its RegExps with the global constructor, synchronously: nothing else runs until it returns.
  compiling = patterns;
  globalThis.RegExp = LinearRegExp as unknown as RegExpConstructor;
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } finally {
    globalThis.RegExp = NativeRegExp;
    compiling = null;
  }
}
