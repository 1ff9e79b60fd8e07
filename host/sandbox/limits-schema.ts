/**
 * The one schema of a plugin's per-call limits (`Limits`), for every place a person writes them:
 * `createSandbox` and `createRawSandbox` (sandbox/options.ts, raw.ts), `loadPlugin`'s options and a
 * `wasmhooks.json` plugin entry (plugins/options.ts, config/schema.ts; the published
 * schema/wasmhooks.schema.json is generated from it). It lives here, in the lowest layer that reads
 * limits, so the layers above take it rather than restate it.
 *
 * One rule everywhere: each limit a positive integer (a count of ms, fuel units, pages, bytes or
 * elements; integers past 2^53 are not exact, so refused), memory ≤ 65536 pages (4 GiB), tables
 * ≤ 10,000,000 elements, an unknown limit refused (a misspelt limit would be no limit). The one
 * difference is `unbounded`: the sandbox API also takes `Infinity` for `timeoutMs` and `fuel` (no
 * deadline, no fuel cap; docs/sandbox.md), which a plugin's options never do (its budget is what
 * keeps the agent loop going) and JSON cannot say anyway.
 */
import { z } from 'zod';
import { lazy } from '../lazy.js';

const POSITIVE_INTEGER = 'expected a positive integer';

/** A positive safe integer, refused with one message (config/issues.ts adds the field and the value). */
export const positiveInt = (message = POSITIVE_INTEGER) =>
  z.number({ error: message }).int({ error: message }).positive({ error: message });

/**
 * `timeoutMs` and `fuel`. With `Infinity` allowed (zod's number() refuses it), every branch says the same:
 * config/issues.ts reports one branch's issue when only that one got past the type check.
 */
function budget(unbounded: boolean) {
  if (!unbounded) return positiveInt();
  const message = `${POSITIVE_INTEGER} or Infinity`;
  return z.union([z.literal(Number.POSITIVE_INFINITY, { error: message }), positiveInt(message)], { error: message });
}

/** For an object schema: a message for a value that is no object; an unknown key keeps the unknown-field line, which names it. */
export const objectOf = (what: string) => ({ error: (issue: { code?: string }) => (issue.code === 'invalid_type' ? `expected ${what}` : undefined) });

function build(unbounded: boolean) {
  return z
    .object(
      {
        timeoutMs: budget(unbounded).describe('Wall-clock deadline of one call, in ms.'),
        fuel: budget(unbounded).describe('Fuel units one call may burn (roughly: wasm instructions).'),
        maxMemoryPages: positiveInt().max(65536, { error: 'expected at most 65536 (4 GiB)' }).describe('Memory cap in 64 KiB pages.'),
        maxInputBytes: positiveInt().describe('Bytes of input one call may take.'),
        maxOutputBytes: positiveInt().describe('Bytes of output one call may return.'),
        maxVarBytes: positiveInt().describe('Bytes of Extism variables (keys and values) one instance may hold.'),
        maxVars: positiveInt().describe('Number of Extism variables one instance may hold.'),
        maxLogBytes: positiveInt().describe('Log text delivered per call; the rest is dropped and counted.'),
        maxProgressBytes: positiveInt().describe('Progress text one call may report; past it the call fails with OUTPUT_TOO_LARGE.'),
        // Zero is no cap anyone means: it refuses every module with a table (a function table is in most
        // compiled plugins), so it is refused here rather than by the load that follows.
        maxTableElements: positiveInt()
          .max(10_000_000, { error: 'expected at most 10000000' })
          .describe('Cap on the elements of all the plugin\'s tables together (host memory, ~16 bytes each).'),
      },
      objectOf('an object of limits ({ "timeoutMs": …, "fuel": … })'),
    )
    .partial()
    .strict();
}

// Each built at its first use (see lazy.ts): `import 'wasmhooks'` pays for neither.
const finite = lazy(() => build(false));
const unbounded = lazy(() => build(true));

/**
 * The limits object (each limit optional; DEFAULT_LIMITS fills the rest). `unbounded`: `Infinity` is
 * also a `timeoutMs` or `fuel` (the sandbox API); without it, as a plugin's options and config take them.
 */
export function limitsSchema(options: { unbounded: true }): ReturnType<typeof unbounded>;
export function limitsSchema(options: { unbounded: false }): ReturnType<typeof finite>;
export function limitsSchema(options: { unbounded: boolean }): ReturnType<typeof unbounded> | ReturnType<typeof finite> {
  return options.unbounded ? unbounded() : finite();
}
