/** Reading and validating request input; every failure is a 4xx `ApiError`. */
import type { Context } from 'hono';
import { z } from 'zod';
import { parseJson } from '../json.js';
import { bodyOf } from './body-read.js';
import { ApiError, validationError } from './errors.js';

/** Object keys a request body may hold in all: far past any route's (a tool input rewritten in a control answer included). */
export const MAX_BODY_KEYS = 10_000;

/** Bytes that are not UTF-8 are refused, never repaired into U+FFFD (a BOM is kept, so JSON.parse refuses it as before). */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The JSON body, validated. An absent body is `{}` when `optional`. The
 * content type was checked by `jsonPosts`, the size and time by `readBody`; the
 * encoding (UTF-8), the nesting depth and unique keys are checked here,
 * by the host's one bounded parser.
 */
export async function jsonBody<T extends z.ZodType>(c: Context, schema: T, optional = false): Promise<z.output<T>> {
  const parsed = schema.safeParse(bodyJson(c, optional));
  if (!parsed.success) throw validationError(parsed.error, 'body');
  return parsed.data;
}

/**
 * The body as JSON, unvalidated (for a handler with its own schema: the MCP
 * endpoint), read the one way every body is: UTF-8 or 400, unique keys,
 * bounded depth. An absent body is `{}` when `optional`. `held`: the caller keeps the value for as long
 * as its route runs, unbounded by a schema, so the body stays counted in `bodyBytesInFlight` (`bodyOf`).
 */
export function bodyJson(c: Context, optional = false, held = false): unknown {
  let text: string;
  try {
    text = utf8.decode(bodyOf(c, held));
  } catch (error) {
    if (error instanceof TypeError) throw new ApiError('invalid_json', 'the body is not valid UTF-8; JSON bodies must be UTF-8');
    throw error;
  }
  if (text.trim() === '' && optional) return {};
  const parsed = parseJson(text, 'the body', { uniqueKeys: true, maxKeys: MAX_BODY_KEYS });
  if (!parsed.ok) throw new ApiError(parsed.problem === 'too_large' ? 'payload_too_large' : 'invalid_json', parsed.message);
  return parsed.value;
}

export const sessionIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._:-]+$/, 'session ids are letters, digits and . _ : -');

/** A validated path parameter. */
export function param(c: Context, name: string, schema: z.ZodType<string> = sessionIdSchema): string {
  const parsed = schema.safeParse(c.req.param(name));
  if (!parsed.success) throw validationError(parsed.error, `params.${name}`);
  return parsed.data;
}
