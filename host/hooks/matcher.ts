/**
 * The one tool-name matcher. JS hooks, shell hooks, WASM plugin bindings and
 * permission rules all compile their patterns here, so a pattern means the
 * same thing wherever it is written (docs/hooks.md, "Matchers"):
 *
 * - absent, `""` or `"*"`: every tool (no regex runs);
 * - anything else: a regular expression matched against the **whole** tool
 *   name, as if written `^(?:pattern)$`. So `"Bash"` is exactly Bash,
 *   `"Write|Edit"` either of the two, `"mcp__github__.*"` every tool of that
 *   MCP server.
 *
 * Patterns may come from a stranger's plugin (`describe`), so matching must
 * cost the host no more than a constant per character of the tool name. The
 * regex runs on RE2 (re2js: an automaton, no backtracking), and a pattern is
 * bounded where RE2's compile cost is not: at most `MAX_MATCHER_LENGTH`
 * characters; counted repetitions (`{n}`, `{n,}`, `{n,m}`, which RE2 expands
 * into copies of their operand) only while the pattern's length times the
 * product of their counts stays within `MAX_MATCHER_EXPANSION` (a bound on
 * the copies, checked before compiling); at most `MAX_MATCHER_PROGRAM`
 * compiled instructions. RE2 syntax is
 * JavaScript's minus backreferences and lookaround; JS-only escapes
 * (`\u0041`) are translated.
 */
import { RE2JS } from 're2js';
import type { z } from 'zod';
import { WasmhooksError } from '../errors.js';

/** The longest pattern accepted, in UTF-16 code units. */
export const MAX_MATCHER_LENGTH = 256;
/**
 * The most a pattern's cost (its length times the product of its repetition counts) may be:
 * `[a-z]{1,64}` costs 11 × 64; `.{1000}` 7 × 1000, refused. Bounds what RE2 expands (and so
 * the time to compile) before it is asked to.
 */
export const MAX_MATCHER_EXPANSION = 1024;
/** The most RE2 instructions a compiled pattern may have (the factor of matching's linear cost). */
const MAX_MATCHER_PROGRAM = 4096;

/** A compiled pattern. `test` is linear in the tool name and never throws. */
export interface ToolMatcher {
  /** The pattern as written. */
  readonly source: string;
  test(toolName: string): boolean;
}

export type MatcherParse = { ok: true; matcher: ToolMatcher | undefined } | { ok: false; message: string };

/** True for the patterns that match every tool. */
export const matchesEveryTool = (pattern: string | undefined): boolean =>
  pattern === undefined || pattern === '' || pattern === '*';

/** Names and `|` only: the exact-name fast path (same meaning as the regex). */
const NAME_LIST = /^[A-Za-z0-9_-]+(?:\|[A-Za-z0-9_-]+)*$/;
/**
 * Every `{n}`, `{n,}` and `{n,m}` in the text RE2 parses. Literal ones (escaped, in a class) are
 * counted too: over-counting only refuses more, and every real repetition has this form.
 */
const COUNTED_REPETITION = /\{(\d+)(?:,(\d*))?\}/g;

/** Length × the product of the repetition counts: at least as many copies as RE2 could make. */
function expansion(re2Source: string): number {
  let product = 1;
  for (const m of re2Source.matchAll(COUNTED_REPETITION)) product *= Math.max(1, Number(m[1]), m[2] ? Number(m[2]) : 0);
  return re2Source.length * product;
}

/**
 * What compiling `pattern` may cost, in the unit of `MAX_MATCHER_EXPANSION` (0 for a pattern
 * that matches every tool). For a budget over several patterns (a plugin's bindings).
 */
export function matcherCost(pattern: string): number {
  if (matchesEveryTool(pattern)) return 0;
  try {
    return expansion(RE2JS.translateRegExp(pattern));
  } catch {
    return pattern.length;
  }
}

/** Compiled patterns by source, so a pattern validated at load is not compiled again per binding. */
const cache = new Map<string, ToolMatcher>();
const CACHE_LIMIT = 512;

function compile(source: string, re2Source: string, flags: number): ToolMatcher & { size: number } {
  if (NAME_LIST.test(re2Source) && flags === 0) {
    const names = new Set(re2Source.split('|'));
    return { source, size: 0, test: (toolName) => names.has(toolName) };
  }
  const re = RE2JS.compile(`^(?:${re2Source})$`, flags);
  return { source, size: re.programSize(), test: (toolName) => re.testExact(toolName) };
}

/**
 * Checks and compiles a pattern. Never throws; a refusal says why, for the
 * caller to name the hook or binding it belongs to.
 *
 * A `RegExp` (from trusted JS configuration) keeps its `i`, `m` and `s`
 * flags; it must still be RE2-compatible.
 */
export function parseToolMatcher(pattern: string | RegExp | undefined): MatcherParse {
  if (typeof pattern !== 'object' && matchesEveryTool(pattern)) return { ok: true, matcher: undefined };
  if (typeof pattern !== 'string' && !(pattern instanceof RegExp)) {
    return { ok: false, message: `expected a string or a RegExp, got ${typeof pattern}` };
  }
  const source = typeof pattern === 'string' ? pattern : pattern.source;
  const flags =
    typeof pattern === 'string'
      ? 0
      : (pattern.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) | (pattern.multiline ? RE2JS.MULTILINE : 0) | (pattern.dotAll ? RE2JS.DOTALL : 0);
  if (source.length > MAX_MATCHER_LENGTH) {
    return { ok: false, message: `matcher is ${source.length} characters long; the limit is ${MAX_MATCHER_LENGTH}` };
  }
  const key = `${flags}/${source}`;
  const hit = cache.get(key);
  if (hit) return { ok: true, matcher: hit };
  let re2Source: string;
  try {
    re2Source = RE2JS.translateRegExp(source);
  } catch (e) {
    return { ok: false, message: `matcher ${JSON.stringify(source)} is not a valid regular expression: ${e instanceof Error ? e.message : String(e)}` };
  }
  const copies = expansion(re2Source);
  if (copies > MAX_MATCHER_EXPANSION) {
    return {
      ok: false,
      message: `matcher ${JSON.stringify(source)} is too large with its counted repetitions ({n}, {n,m}): length × counts = ${copies}, the limit is ${MAX_MATCHER_EXPANSION}`,
    };
  }
  let matcher: ToolMatcher & { size: number };
  try {
    matcher = compile(source, re2Source, flags);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return { ok: false, message: `matcher ${JSON.stringify(source)} is not a valid regular expression (RE2 syntax: no backreferences or lookaround): ${why}` };
  }
  if (matcher.size > MAX_MATCHER_PROGRAM) {
    return { ok: false, message: `matcher ${JSON.stringify(source)} compiles to ${matcher.size} instructions; the limit is ${MAX_MATCHER_PROGRAM}` };
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, matcher);
  return { ok: true, matcher };
}

/** A matcher that accepts every tool (permission rules written `""` or `"*"`). */
export const EVERY_TOOL: ToolMatcher = Object.freeze({ source: '*', test: () => true });

/**
 * `parseToolMatcher` for configuration: throws INVALID_OPTIONS naming `where`
 * (the hook group or rule the pattern belongs to).
 */
export function compileToolMatcher(pattern: string | RegExp | undefined, where: string): ToolMatcher | undefined {
  const parsed = parseToolMatcher(pattern);
  if (!parsed.ok) throw new WasmhooksError('INVALID_OPTIONS', `${where}: ${parsed.message}`);
  return parsed.matcher;
}

/** A zod check for a matcher written in configuration (`z.string().superRefine(matcherCheck)`). */
export function matcherCheck(pattern: string, ctx: z.RefinementCtx): void {
  const parsed = parseToolMatcher(pattern);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
}
