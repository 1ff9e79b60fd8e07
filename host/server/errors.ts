/**
 * Every error the API returns goes through `errorResponse`: one mapping from
 * thrown values to `{ error: { code, message, path? } }` and a status.
 */
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { WasmhooksError, type WasmhooksErrorCode } from '../errors.js';
import { isRecord } from '../json.js';
import { isHostBusy } from '../sandbox/job-queue.js';

export type ApiErrorCode =
  | 'bad_request'
  | 'invalid_json'
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'request_timeout'
  | 'too_many_sessions'
  | 'too_many_streams'
  | 'too_many_requests'
  | 'uri_too_long'
  | 'unsupported_media_type'
  | 'headers_too_large'
  | 'not_implemented'
  | 'unavailable'
  | 'internal';

export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string; path?: string };
}

const STATUS: Record<ApiErrorCode, ContentfulStatusCode> = {
  bad_request: 400,
  invalid_json: 400,
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  request_timeout: 408,
  too_many_sessions: 429,
  too_many_streams: 503,
  too_many_requests: 429,
  uri_too_long: 414,
  unsupported_media_type: 415,
  headers_too_large: 431,
  not_implemented: 501,
  unavailable: 503,
  internal: 500,
};

/** An error meant for the client, thrown from routes. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly path?: string,
    /** Answer with `Connection: close` (set with the response, so every runtime and every method keeps it). */
    readonly close = false,
  ) {
    super(message);
  }
  get status(): ContentfulStatusCode {
    return STATUS[this.code];
  }
}

function fromHostCode(code: WasmhooksErrorCode): ApiErrorCode {
  switch (code) {
    case 'NOT_FOUND':
      return 'not_found';
    case 'SESSION_BUSY':
    case 'SESSION_CLOSED':
      return 'conflict';
    case 'INVALID_OPTIONS':
    case 'INVALID_CONFIG':
    case 'INVALID_WASM':
    case 'MISSING_EXPORT':
    case 'PROTOCOL_MISMATCH':
    case 'BAD_OUTPUT':
    case 'INVALID_PLUGIN_IDENTITY':
    case 'RESERVED_TOOL_NAME':
    case 'INTEGRITY':
    case 'GRANT_DENIED':
    case 'NOT_CONSENTED':
    case 'SIGNATURE':
    case 'UNKNOWN_HOOK_EVENT':
    // Over HTTP a load fails for the source the client named (`POST /plugins`: no such path, a FIFO without a
    // writer, a download that failed or timed out, a plugin whose describe traps): its 400, not the server's 500.
    // A load the host was too busy to take (sandbox/job-queue.ts) is the server's: 503, above.
    case 'LOAD_FAILED':
      return 'bad_request';
    case 'STORE_UNAVAILABLE':
      return 'unavailable';
    case 'MODEL_ERROR':
      return 'internal';
    default: {
      const never: never = code;
      return never;
    }
  }
}

function fromStatus(status: number): ApiErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 408) return 'request_timeout';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status === 431) return 'headers_too_large';
  if (status >= 400 && status < 500) return 'bad_request';
  return 'internal';
}

/** A zod failure as an API error naming the first bad field. */
export function validationError(error: z.ZodError, where: string): ApiError {
  const issue = error.issues[0];
  const path = cut(issue?.path.map(String).join('.') ?? '');
  const at = path ? `${where}.${path}` : where;
  return new ApiError('validation', `${at}: ${cut(issue?.message ?? 'invalid')}`, at);
}

/**
 * A piece of a validation message, within 300 characters: zod names every unknown key (a body of 100,000 keys
 * was answered with all of them, 700 KB; review red18) and a path can be as long as the client made it.
 */
function cut(text: string): string {
  return text.length <= 300 ? text : `${text.slice(0, 300)}… (${text.length} characters)`;
}

/** The JSON text of an error body; also written raw by runtime adapters for requests that never reach the app. */
export function errorJson(code: ApiErrorCode, message: string, path?: string): string {
  const body: ApiErrorBody = { error: { code, message, ...(path ? { path } : {}) } };
  return JSON.stringify(body);
}

/** Maps anything thrown in a route to a JSON response. Unknown errors are 500 without internals. */
export function errorResponse(error: unknown): Response {
  let api: ApiError;
  if (error instanceof ApiError) api = error;
  else if (error instanceof WasmhooksError) api = new ApiError(isHostBusy(error) ? 'unavailable' : fromHostCode(error.code), error.message);
  else if (error instanceof z.ZodError) api = validationError(error, 'body');
  else if (error instanceof HTTPException) api = new ApiError(fromStatus(error.status), error.message || `HTTP ${error.status}`);
  else api = new ApiError('internal', 'internal server error');
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (api.code === 'unauthorized') headers['www-authenticate'] = 'Bearer';
  if (api.close) headers.connection = 'close';
  if (api.code === 'too_many_streams' || api.code === 'unavailable') headers['retry-after'] = '5';
  return new Response(errorJson(api.code, api.message, api.path), { status: api.status, headers });
}

/**
 * The error a forwarded answer came back with, as this replica's own: a
 * refusal keeps its code (a 400 on either replica); anything else is not a
 * verdict on the answer, so it is never reported as "not pending".
 */
export function remoteRefusal(answer: unknown): ApiError {
  const r = isRecord(answer) ? answer : {};
  const message = typeof r.error === 'string' ? r.error : 'no verdict';
  if (r.code === 'validation') return new ApiError('validation', message, typeof r.path === 'string' ? r.path : undefined);
  return new ApiError('unavailable', `the replica running this prompt could not apply the answer (${message}); retry`);
}
