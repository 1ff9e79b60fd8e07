/**
 * Control requests: questions the host asks a remote client (over SSE) and
 * that the client answers over HTTP. One union per concept: the subtype
 * decides both the payload and the accepted response.
 */
import { z } from 'zod';
import type { PermissionAnswer } from '../permissions/types.js';

export type ControlSubtype = 'can_use_tool' | 'hook_callback' | 'elicitation';

export interface ControlPayloads {
  can_use_tool: {
    toolName: string;
    toolUseId: string;
    input: Record<string, unknown>;
    reason: string;
    /** The session's cwd, which relative paths in `input` are resolved against. */
    workingDirectory: string;
    /** Set when a sub-agent asks (so a UI can show where the call comes from). */
    agentId?: string;
    parentToolUseId?: string;
  };
  hook_callback: { callbackId: string; hookEvent: string; input: unknown };
  elicitation: { message: string; schema?: Record<string, unknown> };
}

const record = z.record(z.string(), z.unknown());

/** The accepted `response` of each subtype. */
export const controlResponseSchemas = {
  can_use_tool: z.discriminatedUnion('behavior', [
    z.object({ behavior: z.literal('allow'), updatedInput: record.optional() }).strict(),
    z.object({ behavior: z.literal('allow_always'), updatedInput: record.optional() }).strict(),
    z.object({ behavior: z.literal('deny'), message: z.string().min(1).max(10_000) }).strict(),
  ]),
  hook_callback: z
    .object({
      decision: z.enum(['continue', 'allow', 'deny', 'ask', 'stop', 'block']),
      reason: z.string().max(10_000).optional(),
      systemMessage: z.string().max(10_000).optional(),
      additionalContext: z.string().max(100_000).optional(),
      updatedInput: record.optional(),
    })
    .strict(),
  elicitation: z
    .object({ action: z.enum(['accept', 'decline', 'cancel']), content: record.optional() })
    .strict(),
} as const;

export interface ControlResponses {
  can_use_tool: Exclude<PermissionAnswer, { behavior: 'cancelled' }>;
  hook_callback: z.output<(typeof controlResponseSchemas)['hook_callback']>;
  elicitation: z.output<(typeof controlResponseSchemas)['elicitation']>;
}

export type ControlRequest = {
  [S in ControlSubtype]: {
    id: string;
    sessionId: string;
    subtype: S;
    payload: ControlPayloads[S];
    /** Epoch ms. */
    createdAt: number;
    timeoutMs: number;
  };
}[ControlSubtype];

/** Body of `POST /session/:id/control-response`. */
export const controlResponseBodySchema = z
  .object({
    requestID: z.string().min(1).max(200),
    subtype: z.enum(['can_use_tool', 'hook_callback', 'elicitation']),
    response: z.unknown(),
  })
  .strict();

export const controlCancelBodySchema = z.object({ requestID: z.string().min(1).max(200).optional() }).strict();

/** Why a response was not applied. */
export type NotResolvedReason = 'not-pending' | 'session-mismatch' | 'subtype-mismatch';
