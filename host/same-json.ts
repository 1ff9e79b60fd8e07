/**
 * Deep structural equality of two JSON values (tool inputs): key order does
 * not matter, a key whose value is `undefined` counts as absent (JSON drops
 * it). Used only after a hook or an approver rewrote a tool input, to tell an
 * idempotent rewrite (a normaliser) from a real one: the common path, where
 * nothing was rewritten, never calls it.
 */

/** Deeper than any input the bounded JSON parser lets in (host/json.ts): past it the values count as different, which only costs a re-check. */
const MAX_DEPTH = 64;

export function sameJson(a: unknown, b: unknown): boolean {
  return same(a, b, 0);
}

function same(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  // An app's updatedInput is a JS object and may be cyclic or absurdly deep: different, never a stack overflow.
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i], b[i], depth + 1)) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let keys = 0;
  for (const k in x) {
    if (!Object.hasOwn(x, k) || x[k] === undefined) continue;
    if (!Object.hasOwn(y, k) || !same(x[k], y[k], depth + 1)) return false;
    keys++;
  }
  for (const k in y) if (Object.hasOwn(y, k) && y[k] !== undefined) keys--;
  return keys === 0;
}
