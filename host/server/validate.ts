/** Reading and validating request input; every failure is a 4xx `ApiError`. */
import type { Context } from 'hono';
import { z } from 'zod';
import { parseJson } from '../json.js';
import { ApiError, validationError } from './errors.js';

/**
 * The JSON body, validated. An absent body is `{}` when `optional`. The
 * content type was checked by `jsonPosts`, the size by `bodyLimit`; the
 * nesting depth is checked here, by the host's one bounded parser.
 */
export async function jsonBody<T extends z.ZodType>(c: Context, schema: T, optional = false): Promise<z.output<T>> {
  const text = await c.req.text();
  let value: unknown = {};
  if (text.trim() !== '' || !optional) {
    const parsed = parseJson(text, 'the body');
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
