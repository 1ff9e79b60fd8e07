/**
 * Server-sent events off a fetch body: bytes decoded as UTF-8 across chunk
 * boundaries, framed by `eventsource-parser`, with abort and an idle timeout.
 */
import type { EventSourceMessage } from 'eventsource-parser';
import { messageOf } from '../errors.js';
import { timerDelay } from '../timer.js';
import { cappedBody } from '../capped-body.js';

/**
 * Bytes of one provider event (one SSE message, up to its blank line). A provider's events are
 * deltas of a few hundred bytes; a whole answer in one event is at most its output tokens. The
 * parser holds an unfinished event whatever its size, so an endless one grew memory for as long
 * as the server kept sending (an idle timeout never fires): past this the stream is BAD_STREAM.
 */
const MAX_PROVIDER_EVENT_BYTES = 16 * 1024 * 1024;

/** How reading ended: the body finished, the caller aborted, or the connection broke or went quiet. */
type SseEnd =
  | { reason: 'eof' }
  | { reason: 'aborted' }
  | { reason: 'broken'; message: string };

export type SseItem = { kind: 'event'; event: EventSourceMessage } | { kind: 'end'; end: SseEnd };

/**
 * Yields each SSE event of `body`, then exactly one `end` item. Never throws.
 * Stopping the iteration early (or aborting) cancels the body, which closes
 * the connection.
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  idleTimeoutMs: number,
  maxEventBytes = MAX_PROVIDER_EVENT_BYTES,
): AsyncGenerator<SseItem, void, undefined> {
  // Loaded with the first stream: an app that never calls a provider does not pay for it at import.
  let createParser: typeof import('eventsource-parser').createParser;
  try {
    ({ createParser } = await import('eventsource-parser'));
  } catch (error) {
    await body.cancel().catch(() => {});
    return yield { kind: 'end', end: { reason: 'broken', message: messageOf(error) } };
  }
  const tooLarge = (): Error => new Error(`an event over ${maxEventBytes} bytes (MAX_PROVIDER_EVENT_BYTES) never ended; the rest was not read`);
  const reader = body.pipeThrough(cappedBody(maxEventBytes, true, tooLarge)).getReader();
  const decoder = new TextDecoder('utf-8');
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => queue.push(event) });
  // Some runtimes leave a pending read() hanging after the fetch signal aborts; cancel wakes it.
  const onAbort = (): void => void reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    while (true) {
      if (signal.aborted) return yield { kind: 'end', end: { reason: 'aborted' } };
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await readWithin(reader, idleTimeoutMs);
      } catch (error) {
        if (signal.aborted) return yield { kind: 'end', end: { reason: 'aborted' } };
        return yield { kind: 'end', end: { reason: 'broken', message: messageOf(error) } };
      }
      if (signal.aborted) return yield { kind: 'end', end: { reason: 'aborted' } };
      if (chunk.done) {
        parser.feed(decoder.decode());
      } else {
        parser.feed(decoder.decode(chunk.value, { stream: true }));
      }
      while (queue.length > 0) yield { kind: 'event', event: queue.shift() as EventSourceMessage };
      if (chunk.done) return yield { kind: 'end', end: { reason: 'eof' } };
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    reader.cancel().catch(() => {});
  }
}

async function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  ms: number,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`no data for ${ms} ms; the connection looks stalled`));
    }, timerDelay(ms));
  });
  try {
    return await Promise.race([reader.read(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
