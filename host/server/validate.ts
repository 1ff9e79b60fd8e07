/** Reading and validating request input; every failure is a 4xx `ApiError`. */
import type { Context } from 'hono';
import { z } from 'zod';
import { parseJson } from '../json.js';
import { bodyOf } from './body-read.js';
import { ApiError, validationError } from './errors.js';

/** Bytes that are not UTF-8 are refused, never repaired into U+FFFD (a BOM is kept, so JSON.parse refuses it as before). */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The JSON body, validated. An absent body is `{}` when `optional`. The
 * content type was checked by `jsonPosts`, the size and time by `readBody`; the
 * encoding (UTF-8), the nesting depth and unique keys are checked here,
 * by the host's one bounded parser.
 */
export async function jsonBody<T extends z.ZodType>(c: Context, schema: T, optional = false): Promise<z.output<T>> {
  let text: string;
  try {
    text = utf8.decode(bodyOf(c));
  } catch (error) {
    if (error instanceof TypeError) throw new ApiError('invalid_json', 'the body is not valid UTF-8; JSON bodies must be UTF-8');
    throw error;
  }
  let value: unknown = {};
  if (text.trim() !== '' || !optional) {
    const parsed = parseJson(text, 'the body', { uniqueKeys: true });
    if (!parsed.ok) throw new ApiError(parsed.problem === 'too_large' ? 'payload_too_large' : 'invalid_json', parsed.message);
    value = parsed.value;
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, 'body');
  return parsed.data;
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
