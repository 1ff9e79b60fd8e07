/**
 * The one bounded JSON parser for every JSON text that enters the host from
 * outside: HTTP bodies (and control answers inside them), tool arguments
 * streamed by models, JSON inside plugin outputs. `JSON.parse` itself copes
 * with deep nesting, but everything after it (`JSON.stringify` for an SSE
 * frame, structured clone, a recursive walk) overflows the stack on a value
 * nested some thousands deep. So depth is checked on the text, in one linear
 * pass without recursion, before it is parsed.
 */

/**
 * The deepest nesting of arrays and objects the host takes in JSON from outside, whoever parsed it:
 * a text through `parseJson` (a plugin's JSON fields, a model's tool input, a body) or a value
 * another parser made (an MCP server's tool schemas and results, parsed by the SDK: `nestsDeeper`).
 * Generous for any real tool input, schema or answer; far below what overflows a stack on Node,
 * Deno or Bun (a walk, `JSON.stringify`, zod or structured clone on a value 100,000 deep ended in
 * a RangeError, "Maximum call stack size exceeded").
 */
export const MAX_JSON_DEPTH = 64;

const JSON_BOUNDS = { maxDepth: MAX_JSON_DEPTH, maxLength: 16 * 1024 * 1024 } as const;

/** The one refusal of JSON nested too deep, text or value: `what` names where it came from. */
export const tooDeep = (what: string, max = MAX_JSON_DEPTH): string => `${what} nests arrays/objects deeper than ${max} levels (the host's limit for JSON from outside)`;

/**
 * Whether a parsed value nests arrays/objects deeper than `max` (`[]` is depth 1, as `parseJson`
 * counts). Iterative, so any depth is measured without recursion; it stops at the first node past
 * `max`, and so also ends on a cyclic object.
 */
export function nestsDeeper(value: unknown, max = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const nodes: object[] = [value];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** Why a text was refused; each maps to one typed error where it is used (400/413 over HTTP, BAD_OUTPUT, BAD_STREAM). */
type JsonProblem = 'syntax' | 'too_deep' | 'too_large' | 'too_many_keys' | 'duplicate_key' | 'not_finite';

export interface JsonOptions {
  /** Deepest nesting of arrays and objects (`[]` is depth 1). */
  maxDepth?: number;
  /** Longest text, in UTF-16 code units (`string.length`). */
  maxLength?: number;
  /**
   * Most object members in the whole text (default: no cap). An object of 100,000 keys in a 1 MiB HTTP body
   * took 150 ms of parsing and checking (V8 builds it as a dictionary), 100 times a body of one long string.
   */
  maxKeys?: number;
  /**
   * Refuse an object that names a key twice. `JSON.parse` keeps the last one,
   * other parsers the first: a text whose meaning depends on the reader
   * (`{"behavior":"deny",…,"behavior":"allow"}` past a proxy that reads the
   * first) is refused where it decides something (HTTP bodies). So is the
   * key `__proto__`: `JSON.parse` makes it an own property, but the first
   * `Object.assign` or `obj[key] = …` copy turns it into the copy's
   * prototype, and zod's records drop it silently: data that means one thing
   * here and another a step later. So, too, is a number past a double's range
   * (`1e400`): `JSON.parse` reads it as Infinity, which the next
   * `JSON.stringify` (a WASM hook's input, an MCP call) writes as `null`.
   */
  uniqueKeys?: boolean;
}

/**
 * A tool input as a model streams it: the rule a plugin's rewritten input meets (codec.ts), so a
 * key named twice or `__proto__` (a prompt-injected call whose meaning depends on who reads it)
 * is refused however the input arrives (BAD_STREAM from the provider decoders).
 */
export const TOOL_INPUT_JSON: JsonOptions = Object.freeze({ uniqueKeys: true });

/**
 * A deep copy of JSON-like data (hook inputs, a permission question's tool input), so a JS
 * hook or an app's permission callback that mutates what it was given changes nothing.
 * Several times cheaper than structuredClone.
 */
export function copyJson(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(copyJson);
  const out: Record<string, unknown> = {};
  for (const k in v) {
    const value = copyJson((v as Record<string, unknown>)[k]);
    // An own "__proto__" key (JSON.parse makes one) stays an own key: assigned, it would become the
    // copy's prototype, and the hook would read inherited values the tool never gets.
    if (k === '__proto__') Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
    else out[k] = value;
  }
  return out;
}

/** A JSON object (not an array, not null). */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export type JsonParsed = { ok: true; value: unknown } | { ok: false; problem: JsonProblem; message: string };

/**
 * The nesting depth of a JSON text and its count of object members (colons), counting outside strings. Stops
 * (and returns) as soon as a limit is passed. Malformed text gets numbers too; `JSON.parse` refuses it afterwards.
 */
function jsonShape(text: string, limit: number, keyLimit: number): { depth: number; keys: number } {
  let depth = 0;
  let max = 0;
  let keys = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) {
        max = depth;
        if (max > limit) break;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x3a && ++keys > keyLimit) break;
  }
  return { depth: max, keys };
}

/** What the key scan found: a key named twice, a `__proto__` key, or a number past a double's range. */
type KeyProblem = { key: string; twice: boolean } | { key?: undefined; infinite: true };

/**
 * The first key named twice in one object of a JSON text that parsed, or
 * the first `__proto__` key (`twice: false`); failing those, whether a
 * number in it reads as ±Infinity (`infinite`); else undefined. One pass
 * over the text without recursion (the number rule rides on it rather than
 * walking the parsed value again); keys are compared decoded, so `"a"` and
 * `"\u0061"` are the same key.
 */
function keyProblem(text: string): KeyProblem | undefined {
  // Per open container: its keys (objects) or null (arrays).
  const stack: (Set<string> | null)[] = [];
  let expectKey = false;
  let infinite = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      if (!expectKey) continue;
      expectKey = false;
      const key = JSON.parse(text.slice(start, i + 1)) as string;
      if (key === '__proto__') return { key, twice: false };
      const keys = stack.at(-1);
      if (keys?.has(key)) return { key, twice: true };
      keys?.add(key);
    } else if (c === 0x7b) {
      stack.push(new Set());
      expectKey = true;
    } else if (c === 0x5b) stack.push(null);
    else if (c === 0x7d || c === 0x5d) stack.pop();
    else if (c === 0x2c) expectKey = stack.at(-1) instanceof Set;
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      // A number (the text parsed, so it is well formed). Only one with an
      // exponent, or of more than 300 characters, can pass a double's range.
      const start = i;
      let exponent = false;
      for (; i + 1 < text.length; i++) {
        const d = text.charCodeAt(i + 1);
        if (d === 0x65 || d === 0x45) exponent = true;
        else if (!(d === 0x2b || d === 0x2d || d === 0x2e || (d >= 0x30 && d <= 0x39))) break;
      }
      if (!infinite && (exponent || i - start >= 300) && !Number.isFinite(Number(text.slice(start, i + 1)))) infinite = true;
    }
  }
  return infinite ? { infinite } : undefined;
}

/**
 * Parses `text` within `bounds`; never throws. `what` names the text in the
 * message ("the body", "tool call 0 (Write) arguments").
 *
 * @example
 * const r = parseJson(body, 'the body');
 * if (!r.ok) throw new ApiError(r.problem === 'too_large' ? 'payload_too_large' : 'invalid_json', r.message);
 */
export function parseJson(text: string, what: string, bounds: JsonOptions = {}): JsonParsed {
  const maxLength = bounds.maxLength ?? JSON_BOUNDS.maxLength;
  const maxDepth = bounds.maxDepth ?? JSON_BOUNDS.maxDepth;
  if (text.length > maxLength) {
    return { ok: false, problem: 'too_large', message: `${what} is ${text.length} characters long; the limit is ${maxLength}` };
  }
  const maxKeys = bounds.maxKeys ?? Number.POSITIVE_INFINITY;
  const shape = jsonShape(text, maxDepth, maxKeys);
  if (shape.depth > maxDepth) {
    return { ok: false, problem: 'too_deep', message: tooDeep(what, maxDepth) };
  }
  if (shape.keys > maxKeys) {
    return { ok: false, problem: 'too_many_keys', message: `${what} holds more than ${maxKeys} object keys in all; no request needs as many` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: 'syntax', message: `${what} is not valid JSON: ${(error as Error).message}` };
  }
  const bad = bounds.uniqueKeys ? keyProblem(text) : undefined;
  if (bad === undefined) return { ok: true, value };
  if (bad.key === undefined) {
    return { ok: false, problem: 'not_finite', message: `${what} holds a number too large for a double (it reads as Infinity here and as null once written again); send it as a string` };
  }
  if (bad.twice) {
    return { ok: false, problem: 'duplicate_key', message: `${what} names the key ${JSON.stringify(bad.key.slice(0, 100))} twice in one object; send each key once` };
  }
  return { ok: false, problem: 'duplicate_key', message: `${what} uses the key "__proto__", which is not accepted as data (a copy of the object would take it as its prototype); rename it` };
}
