/**
 * The one reader of a byte stream from outside (an HTTP request body, a
 * downloaded plugin, a provider's error answer) bounded in size and time:
 * read as it arrives, so a body without a length (chunked), one longer than
 * it said, or one that never ends costs at most `limit` bytes and
 * `timeoutMs`. Every way of stopping early cancels the stream (the sender is
 * told, the runtime stops reading for us).
 */
import { concatBytes } from './bytes.js';
import { timerDelay } from './timer.js';

/** How a read ended: the whole body, or stopped at the size limit, the deadline, the signal or a failed read. */
type CappedEnd = 'done' | 'over' | 'expired' | 'aborted' | 'failed';

export interface CappedBody {
  end: CappedEnd;
  /**
   * `done`: the whole body. Otherwise, with `partial`, what arrived (at most
   * `limit` bytes); without it, empty (a caller that refuses the body does
   * not pay for joining what it will not use).
   */
  bytes: Uint8Array;
  /** Bytes received, counted up to the chunk that passed the limit. */
  size: number;
  /** The read's failure, when `end` is `failed`. */
  error?: unknown;
}

export interface CappedOptions {
  /** Longest whole read, ms. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Keep what arrived when the read stops early; without it a failed read rethrows. */
  partial?: boolean;
}

const EMPTY = new Uint8Array(0);

export async function readCapped(stream: ReadableStream<Uint8Array>, limit: number, options: CappedOptions = {}): Promise<CappedBody> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stops: Promise<'expired' | 'aborted'>[] = [];
  if (options.timeoutMs !== undefined) stops.push(new Promise((resolve) => (timer = setTimeout(() => resolve('expired'), timerDelay(options.timeoutMs!)))));
  if (options.signal) {
    const signal = options.signal;
    stops.push(new Promise((resolve) => signal.addEventListener('abort', (onAbort = () => resolve('aborted')), { once: true })));
  }
  const stopped = stops.length > 0 ? Promise.race(stops) : undefined;
  const early = (end: CappedEnd, error?: unknown): CappedBody => {
    void reader.cancel().catch(() => {});
    return { end, bytes: options.partial ? concatBytes(parts, Math.min(size, limit)) : EMPTY, size, ...(error !== undefined ? { error } : {}) };
  };
  try {
    if (options.signal?.aborted) return early('aborted');
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array> | 'expired' | 'aborted';
      try {
        chunk = await (stopped ? Promise.race([reader.read(), stopped]) : reader.read());
      } catch (error) {
        if (!options.partial) {
          void reader.cancel().catch(() => {});
          throw error;
        }
        return early('failed', error);
      }
      if (chunk === 'expired' || chunk === 'aborted') return early(chunk);
      if (chunk.done) break;
      size += chunk.value.byteLength;
      parts.push(chunk.value);
      if (size > limit) return early('over');
    }
    // One chunk (most small bodies) is used as it is: no copy.
    return { end: 'done', bytes: parts.length === 1 ? (parts[0] as Uint8Array) : concatBytes(parts, size), size };
  } finally {
    clearTimeout(timer);
    if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}
