/** Reading and validating request input; every failure is a 4xx `ApiError`. */
import type { Context } from 'hono';
import { z } from 'zod';
import { ApiError, validationError } from './errors.js';

/** The JSON body, validated. An absent body is `{}` when `optional`. */
export async function jsonBody<T extends z.ZodType>(c: Context, schema: T, optional = false): Promise<z.output<T>> {
  const text = await c.req.text();
  let value: unknown = {};
  if (text.trim() !== '' || !optional) {
    const type = c.req.header('content-type') ?? '';
    if (!/^application\/json\b/i.test(type)) {
      throw new ApiError('bad_request', 'the body must be JSON: send "Content-Type: application/json"');
    }
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ApiError('invalid_json', `the body is not valid JSON: ${(error as Error).message}`);
    }
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
