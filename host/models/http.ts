/**
 * One streaming POST to a provider, with bounded retries before any byte of
 * a successful body is read, and HTTP failures turned into `ModelFailure`s
 * that carry the provider's own message.
 */
import { z } from 'zod';
import { lazy } from '../lazy.js';
import { readCapped } from '../read-capped.js';
import { messageOf } from '../errors.js';
import type { ModelErrorCode, ModelFailure } from './types.js';
import { backoffMs, type ResolvedRetry, retryAfterMs } from './retry.js';
import { timerDelay } from '../timer.js';

export interface PostRequest {
  /** Who we talk to, for messages: `OpenAI-compatible server at http://…`. */
  label: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  retry: ResolvedRetry;
  fetch: typeof fetch;
  /** Appended to AUTH failures, e.g. `Check OPENAI_API_KEY.` */
  authHint: string;
  /** How long to wait for the response headers of one attempt. */
  headersTimeoutMs: number;
}

/** A streaming response; `release()` must be called when done with its body. */
type StreamResponse = { response: Response & { body: ReadableStream<Uint8Array> }; release: () => void };

export type PostResult =
  | ({ kind: 'response' } & StreamResponse)
  | { kind: 'failure'; failure: ModelFailure }
  | { kind: 'aborted' };

type Attempt =
  | ({ kind: 'response' } & StreamResponse)
  | { kind: 'failure'; failure: ModelFailure; retryable: boolean; retryAfter?: number }
  | { kind: 'aborted' };

/** POSTs `request`, retrying 408/429/5xx and network errors per `request.retry`. */
export async function postWithRetry(request: PostRequest): Promise<PostResult> {
  const { retry, signal } = request;
  for (let attempt = 0; ; attempt++) {
    const result = await attemptOnce(request);
    if (result.kind !== 'failure') return result;
    if (!result.retryable || attempt >= retry.maxRetries) return result;
    if (result.retryAfter !== undefined && result.retryAfter > retry.maxRetryAfterMs) {
      const seconds = Math.ceil(result.retryAfter / 1000);
      const failure = {
        code: result.failure.code,
        message: `${result.failure.message} (the server asked to retry after ${seconds}s, longer than the ${retry.maxRetryAfterMs} ms cap)`,
      };
      return { kind: 'failure', failure };
    }
    await retry.sleep(result.retryAfter ?? backoffMs(attempt, retry), signal);
    if (signal.aborted) return { kind: 'aborted' };
  }
}

async function attemptOnce(request: PostRequest): Promise<Attempt> {
  if (request.signal.aborted) return { kind: 'aborted' };
  // One controller per attempt: the caller's abort and the headers timeout both end the fetch
  // (and later its body); the caller's listener is removed once the body is done with.
  const controller = new AbortController();
  const forward = (): void => controller.abort(request.signal.reason);
  request.signal.addEventListener('abort', forward, { once: true });
  const release = (): void => request.signal.removeEventListener('abort', forward);
  const timer = setTimeout(() => {
    controller.abort(new Error(`no response headers within ${request.headersTimeoutMs} ms`));
  }, timerDelay(request.headersTimeoutMs));
  let response: Response;
  try {
    response = await request.fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal: controller.signal,
      // Never followed: fetch re-sends a 307/308 POST with its body (the whole conversation) and every
      // header but `authorization` (Anthropic's `x-api-key`, a gateway's own key in `headers`) to
      // wherever `location` points, another host or plain http included.
      redirect: 'manual',
    });
  } catch (error) {
    release();
    if (request.signal.aborted) return { kind: 'aborted' };
    const why = controller.signal.aborted ? messageOf(controller.signal.reason) : describeNetworkError(error);
    return { kind: 'failure', failure: { code: 'NETWORK', message: `Could not reach ${request.label}: ${why}` }, retryable: true };
  } finally {
    clearTimeout(timer);
  }
  // An error body that never finishes must not hang the turn either.
  const bodyTimer = setTimeout(() => controller.abort(new Error('error body stalled')), timerDelay(request.headersTimeoutMs));
  try {
    if (isRedirect(response)) {
      release();
      await response.body?.cancel().catch(() => {});
      return { kind: 'failure', failure: redirectFailure(request, response), retryable: false };
    }
    const result = response.ok ? await checkStreamResponse(request, response, release) : await failedResponse(request, response);
    if (result.kind !== 'response') release();
    return result;
  } finally {
    clearTimeout(bodyTimer);
  }
}

async function failedResponse(request: PostRequest, response: Response): Promise<Attempt> {
  const text = await readText(response, request.signal);
  if (request.signal.aborted) return { kind: 'aborted' };
  const code = codeForStatus(response.status);
  const detail = providerMessage(text) ?? (response.statusText || 'no error message');
  const hint = code === 'AUTH' ? ` ${request.authHint}` : '';
  const failure = { code, message: `${request.label} answered HTTP ${response.status}: ${detail}.${hint}` };
  const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
  return { kind: 'failure', failure, retryable, retryAfter: retryAfterMs(response.headers) };
}

/** A 2xx that is not an event stream (a server ignoring `stream: true`, or a JSON error) is no stream. */
async function checkStreamResponse(request: PostRequest, response: Response, release: () => void): Promise<Attempt> {
  const type = response.headers.get('content-type') ?? '';
  if (response.body !== null && !type.includes('application/json')) {
    return { kind: 'response', response: response as StreamResponse['response'], release };
  }
  const text = await readText(response, request.signal);
  if (request.signal.aborted) return { kind: 'aborted' };
  const detail = providerMessage(text) ?? `expected an event stream, got ${type || 'no body'}`;
  const message = `${request.label} answered HTTP ${response.status} without a stream: ${detail}`;
  return { kind: 'failure', failure: { code: 'BAD_STREAM', message }, retryable: false };
}

/** A 3xx answer, or a browser's opaque one (status 0) for `redirect: 'manual'`. */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

/** Names where the redirect pointed (origin only: a path may carry a token) so the operator can set `baseURL` there. */
function redirectFailure(request: PostRequest, response: Response): ModelFailure {
  let to = 'an address it did not give';
  const location = response.headers.get('location');
  if (location) {
    try {
      to = new URL(location, request.url).origin;
    } catch {
      to = 'an address that does not parse';
    }
  }
  const message =
    `${request.label} answered HTTP ${response.status}, a redirect to ${to}; redirects are not followed ` +
    `(one would carry the API key and the conversation to another address). Set baseURL to the address that answers.`;
  return { code: 'BAD_REQUEST', message };
}

export function codeForStatus(status: number): ModelErrorCode {
  if (status === 401 || status === 403) return 'AUTH';
  if (status === 429) return 'RATE_LIMITED';
  if (status === 408) return 'NETWORK';
  if (status >= 500) return 'OVERLOADED';
  return 'BAD_REQUEST';
}

// OpenAI: { error: { message, type, code } }; Anthropic: { type: 'error', error: { type, message } };
// Ollama and some proxies: { error: "text" }; FastAPI-based servers: { detail: "text" }.
const errorBody = lazy(() =>
  z.union([
    z.object({ error: z.object({ message: z.string(), type: z.string().nullish() }) }),
    z.object({ error: z.string() }),
    z.object({ message: z.string() }),
    z.object({ detail: z.string() }),
  ]),
);

/** The provider's own error text from a JSON error body, with its type when given. */
export function providerMessage(text: string): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const trimmed = text.trim();
    return trimmed === '' ? undefined : trimmed.slice(0, 500);
  }
  const parsed = errorBody().safeParse(json);
  if (!parsed.success) return text.trim().slice(0, 500) || undefined;
  const body = parsed.data;
  if ('error' in body) {
    if (typeof body.error === 'string') return body.error;
    return body.error.type ? `${body.error.message} (${body.error.type})` : body.error.message;
  }
  return 'message' in body ? body.message : body.detail;
}

const MAX_ERROR_BODY = 64 * 1024;

/** Reads at most 64 KiB of an error body; a broken or aborted read yields what arrived (still the best description we have). */
async function readText(response: Response, signal: AbortSignal): Promise<string> {
  if (response.body === null) return '';
  const { bytes } = await readCapped(response.body, MAX_ERROR_BODY, { signal, partial: true });
  return new TextDecoder().decode(bytes);
}

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  const causeText = cause === undefined ? '' : ` (${messageOf(cause)})`;
  return `${messageOf(error)}${causeText}`;
}
