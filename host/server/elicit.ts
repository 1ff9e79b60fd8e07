/**
 * Elicitation: a tool or hook asks the user of its session a question and
 * waits for the answer, through an `elicitation` control request (the
 * browser console shows it as a small form). The answer's `content` is
 * checked against the requested JSON schema; a malformed one is refused with
 * a 400 and the question stays pending.
 */
import { z } from 'zod';
import { jsonSchemaChecker } from '../tools/define.js';
import type { ControlBroker } from './control.js';

export interface ElicitationRequest {
  /** The question, shown as text. */
  message: string;
  /** A JSON schema (an object of simple properties) the answer's `content` must match. */
  schema?: Record<string, unknown>;
}

export type ElicitationOutcome =
  | { action: 'accept'; content: Record<string, unknown> }
  | { action: 'decline' }
  /** Dismissed, timed out, aborted, or the session or server went away. */
  | { action: 'cancel'; reason: string };

const requestSchema = z
  .object({ message: z.string().min(1).max(10_000), schema: z.record(z.string(), z.unknown()).optional() })
  .strict();

/** Asks over the broker; never rejects (a malformed request is a cancel with the reason). */
export async function elicit(
  broker: ControlBroker,
  sessionId: string,
  request: ElicitationRequest,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<ElicitationOutcome> {
  const parsed = requestSchema.safeParse(request);
  if (!parsed.success) return { action: 'cancel', reason: `invalid elicitation request: ${z.prettifyError(parsed.error)}` };
  const { message, schema } = parsed.data;
  const check = schema ? jsonSchemaChecker(schema) : undefined;
  const outcome = await broker.ask(sessionId, 'elicitation', { message, ...(schema ? { schema } : {}) }, {
    ...options,
    check: (response) => {
      if (!check || response.action !== 'accept') return undefined;
      const result = check(response.content ?? {});
      return result.ok ? undefined : result.message;
    },
  });
  if (outcome.kind === 'cancelled') return { action: 'cancel', reason: outcome.reason };
  const answer = outcome.response;
  if (answer.action === 'accept') return { action: 'accept', content: answer.content ?? {} };
  if (answer.action === 'decline') return { action: 'decline' };
  return { action: 'cancel', reason: 'dismissed by the user' };
}
