/**
 * The part every streaming provider shares: POST with retries, read SSE,
 * hand each event to a provider-specific decoder, and make sure the turn
 * ends with exactly one `message.end` or `error` (or nothing, on abort).
 * Loaded at a model's first turn (provider.ts), with the decoders.
 */
import type { EventSourceMessage } from 'eventsource-parser';
import { z } from 'zod';
import { messageOf } from '../errors.js';
import { type PostRequest, postWithRetry } from './http.js';
import { readSse } from './sse.js';
import type { ModelEvent, ModelFailure } from './types.js';
import { parseJson } from '../json.js';

/** Turns one provider's SSE events into `ModelEvent`s; one instance per turn. */
export interface WireDecoder {
  /** Events for one SSE message. A `message.end` or `error` among them ends the turn. */
  push(message: EventSourceMessage): ModelEvent[];
  /** The body ended before a terminal event: return the end (lenient) or a BAD_STREAM error. */
  finish(): ModelEvent[];
}

export interface TurnCall extends PostRequest {
  /** Longest silence between body chunks. */
  idleTimeoutMs: number;
  decoder: WireDecoder;
}

/**
 * Runs one turn. Provider failures become a final `error` event; an abort
 * ends the iteration without one. Never throws.
 */
export async function* streamTurn(call: TurnCall): AsyncGenerator<ModelEvent, void, undefined> {
  const posted = await postWithRetry(call);
  switch (posted.kind) {
    case 'aborted':
      return;
    case 'failure':
      yield { type: 'error', error: posted.failure };
      return;
    case 'response':
      break;
    default:
      return assertNever(posted);
  }
  try {
    yield* decode(call, posted.response.body);
  } finally {
    posted.release();
  }
}

async function* decode(call: TurnCall, body: ReadableStream<Uint8Array>): AsyncGenerator<ModelEvent, void, undefined> {
  for await (const item of readSse(body, call.signal, call.idleTimeoutMs)) {
    let events: ModelEvent[];
    if (item.kind === 'event') {
      events = decodeOrBadStream(() => call.decoder.push(item.event), call.label);
    } else {
      const end = item.end;
      switch (end.reason) {
        case 'aborted':
          return;
        case 'eof':
          events = decodeOrBadStream(() => call.decoder.finish(), call.label);
          break;
        case 'broken':
          events = [badStream(`The connection to ${call.label} broke mid-stream: ${end.message}`)];
          break;
        default:
          return assertNever(end);
      }
    }
    for (const event of events) {
      yield event;
      if (event.type === 'message.end' || event.type === 'error') return;
    }
  }
}

/** A decoder bug must not crash the caller's loop: it becomes BAD_STREAM. */
function decodeOrBadStream(run: () => ModelEvent[], label: string): ModelEvent[] {
  try {
    return run();
  } catch (error) {
    return [badStream(`Could not decode the stream from ${label}: ${messageOf(error)}`)];
  }
}

export function badStream(message: string): ModelEvent {
  return { type: 'error', error: { code: 'BAD_STREAM', message } };
}

/** How the provider ended an answer inside a tool call's input: its output token limit, or its content filter. */
export interface InputCut {
  /** The provider's own words: `finish_reason "length"`, `stop_reason "refusal"`, … */
  by: string;
  kind: 'limit' | 'filter';
}

/** The cut `reason` means by the provider's `table` (its reason words → kind), named as the provider spells it. */
export function inputCut(field: string, reason: string | null | undefined, table: Readonly<Record<string, InputCut['kind']>>): InputCut | undefined {
  if (!reason || !Object.hasOwn(table, reason)) return undefined;
  return { by: `${field} "${reason}"`, kind: table[reason] as InputCut['kind'] };
}

/**
 * A tool call whose input JSON did not parse, in one wording for every provider. With `cut` (the answer
 * ended inside the input: OpenAI's `finish_reason "length"`, Anthropic's `stop_reason "max_tokens"`, the AI
 * SDK's `finishReason "length"`, or a content filter) the JSON is not broken but unfinished (or not begun:
 * a call named just before the end), and the message says why and, for the limit, which setting to raise.
 */
export function malformedToolInput(label: string, call: string, detail: string, json: string, cut?: InputCut): ModelEvent {
  const why = cut === undefined
    ? ''
    : cut.kind === 'limit'
      ? ` The answer was cut at the output token limit (${cut.by}) before the input ended: raise maxTokens.`
      : ` The provider's content filter ended the answer (${cut.by}) before the input ended; the call is not run.`;
  // No input at all is only ever told as a cut (a call without arguments is `{}` otherwise).
  const what = json.trim() === '' ? 'no input' : `malformed JSON input (${detail}): ${json.slice(0, 200)}`;
  return badStream(`Tool call ${call} from ${label} has ${what}.${why}`);
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; failure: ModelFailure };

/** Parses one SSE `data` payload as JSON and checks it against `schema`, saying what was wrong. */
export function parseData<T>(schema: z.ZodType<T>, message: EventSourceMessage, label: string): Parsed<T> {
  const json = parseJson(message.data, 'the chunk');
  if (!json.ok) {
    const excerpt = message.data.length > 200 ? `${message.data.slice(0, 200)}…` : message.data;
    const what = `Malformed JSON in the stream from ${label} (${json.message}): ${excerpt}`;
    return { ok: false, failure: { code: 'BAD_STREAM', message: what } };
  }
  const result = schema.safeParse(json.value);
  if (result.success) return { ok: true, value: result.data };
  const event = message.event ? ` event "${message.event}"` : ' chunk';
  const what = `Unexpected${event} in the stream from ${label}: ${z.prettifyError(result.error)}`;
  return { ok: false, failure: { code: 'BAD_STREAM', message: what } };
}

function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}

/**
 * An error the provider reported inside a stream that had already started.
 * Transient kinds keep their HTTP-equivalent code so callers can decide to
 * retry the turn; anything else is BAD_STREAM.
 */
export function midStreamError(label: string, message: string, type: string | null | undefined): ModelEvent {
  const kind = type ?? '';
  const code = /rate_limit/.test(kind)
    ? 'RATE_LIMITED'
    : /overloaded|server_error|api_error/.test(kind)
      ? 'OVERLOADED'
      : 'BAD_STREAM';
  const typed = kind === '' ? '' : ` (${kind})`;
  return { type: 'error', error: { code, message: `${label} reported an error mid-stream: ${message}${typed}` } };
}
