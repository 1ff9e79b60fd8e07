/**
 * Turns zod issues into lines a person can act on:
 * `wasmhooks.json: plugins[0].limits.timeoutMs: expected a positive integer, got -1`.
 */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;
type Key = PropertyKey;

/** `plugins[0].limits.timeoutMs`; the top level is `(top level)`. */
function formatPath(path: readonly Key[]): string {
  if (path.length === 0) return '(top level)';
  return path
    .map((key, i) => {
      if (typeof key === 'number') return `[${key}]`;
      const name = String(key);
      const plain = /^[A-Za-z_$][\w$]*$/.test(name);
      return plain ? (i === 0 ? name : `.${name}`) : `[${JSON.stringify(name)}]`;
    })
    .join('');
}

function valueAt(root: unknown, path: readonly Key[]): { found: boolean; value?: unknown } {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !(key in current)) return { found: false };
    current = (current as Record<Key, unknown>)[key];
  }
  return { found: true, value: current };
}

function show(value: unknown): string {
  // JSON has no Infinity or NaN (it writes them `null`, which is not what was given) and throws on a bigint.
  if (typeof value === 'number') return String(value);
  if (typeof value === 'bigint') return `${value}n`;
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    // A bigint or a cycle inside, or no way to print it: the line still names the field and what was expected.
    text = Array.isArray(value) ? 'an array' : `a value of type ${typeof value}`;
  }
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/**
 * A union reports every branch's issues; when exactly one branch got past the
 * type check (the user clearly meant it), report that branch's issues instead.
 */
function flatten(issue: Issue, prefix: readonly Key[]): Array<{ path: Key[]; issue: Issue }> {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const meant = issue.errors.filter(
      (branch) => !branch.every((i) => i.code === 'invalid_type' && i.path.length === 0),
    );
    if (meant.length === 1) return meant[0]!.flatMap((i) => flatten(i, path));
  }
  return [{ path, issue }];
}

/**
 * One line per issue, without the file name. `base` names where `input` sits (`['wasi']` for a
 * `wasi` option checked on its own), so the line names the field as the caller wrote it.
 * parseConfig and loadPlugin's options both say it this way (one wording for one schema).
 */
export function issueLines(issues: readonly Issue[], input: unknown, base: readonly Key[] = []): string[] {
  const lines = issues.flatMap((i) => flatten(i, [])).map(({ path, issue }) => {
    const where = formatPath([...base, ...path]);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys
        .map((key) => `${formatPath([...base, ...path, key])}: unknown field (check its spelling, or remove it)`)
        .join('\n');
    }
    const at = valueAt(input, path);
    const got = at.found ? `, got ${show(at.value)}` : ', but it is missing';
    // Refinements on a whole object carry their own wording; the value would only be noise.
    const tail = issue.code === 'custom' && at.found && typeof at.value === 'object' ? '' : got;
    return `${where}: ${issue.message}${tail}`;
  });
  return [...new Set(lines)];
}
