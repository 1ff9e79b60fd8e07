/**
 * Retry policy for provider requests: bounded, jittered exponential backoff
 * that defers to the server's `retry-after` when it sends one.
 */
import { timerDelay } from '../timer.js';

/** How a provider retries 429, 5xx/529 and network failures. */
export interface RetryOptions {
  /** Retries after the first attempt (default 2, so at most 3 requests). */
  maxRetries?: number;
  /** First backoff step in ms (default 500); doubles per attempt. */
  baseDelayMs?: number;
  /** Ceiling of one computed backoff step in ms (default 8000). */
  maxDelayMs?: number;
  /**
   * Longest `retry-after` the client is willing to wait, in ms (default
   * 60000). A longer one ends the retries at once with the server's error.
   */
  maxRetryAfterMs?: number;
  /** Source of jitter in [0, 1); injectable for tests. */
  random?: () => number;
  /** How to wait; injectable for tests. Must resolve early when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export type ResolvedRetry = Required<RetryOptions>;

export function resolveRetry(options: RetryOptions | undefined): ResolvedRetry {
  return {
    maxRetries: options?.maxRetries ?? 2,
    baseDelayMs: options?.baseDelayMs ?? 500,
    maxDelayMs: options?.maxDelayMs ?? 8000,
    maxRetryAfterMs: options?.maxRetryAfterMs ?? 60_000,
    random: options?.random ?? Math.random,
    sleep: options?.sleep ?? sleep,
  };
}

/**
 * Delay before retry number `attempt` (0-based): half fixed, half random, so
 * many clients hitting the same limit do not retry in lockstep.
 */
export function backoffMs(attempt: number, policy: ResolvedRetry): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(step / 2 + (step / 2) * policy.random());
}

/**
 * The server's requested wait in ms, from `retry-after-ms` (OpenAI), or
 * `retry-after` as seconds or an HTTP date. `undefined` when absent or
 * unreadable.
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) {
    return Math.max(0, Number(ms));
  }
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms`, resolving early (never rejecting) when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, timerDelay(ms));
    signal.addEventListener('abort', done, { once: true });
  });
}
