/**
 * A hook's deadline, for JS hook groups and shell hooks alike: our `timeoutMs` or Claude Code's
 * `timeout` in seconds (its settings.json writes every command hook's deadline so), one of the two.
 */
import { MAX_TIMER_MS } from '../timer.js';

/** Claude Code's default for a command hook, and ours for JS and shell hooks: 60 s. */
const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

/** Why a hook giving both spellings is refused. */
export const BOTH_TIMEOUTS = 'give timeoutMs (milliseconds) or timeout (seconds, Claude style), not both';

/**
 * The deadline in ms: `timeout` seconds rounded up to a whole ms (0.0001 s is 1 ms, never a 0 ms
 * deadline that fails every call), else `timeoutMs`, else the default; kept at setTimeout's range
 * (`MAX_TIMER_MS`, about 24.8 days), so a value meant as "practically never" is what the timer runs.
 * The caller has checked that each given one is a positive number and not both are given.
 *
 * @example
 * hookTimeoutMs(30, undefined) // → 30_000
 */
export function hookTimeoutMs(timeout: number | undefined, timeoutMs: number | undefined): number {
  const ms = timeout !== undefined ? Math.ceil(timeout * 1000) : (timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS);
  return Math.min(ms, MAX_TIMER_MS);
}
