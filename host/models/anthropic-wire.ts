/**
 * Anthropic Messages wire format: our messages and tools to the request body,
 * and the minimal shapes of the streamed events.
 * https://docs.anthropic.com/en/api/messages-streaming
 */
import { z } from 'zod';
import { lazy } from '../lazy.js';
import { isBlankText, toolResultText } from './blank-text.js';
import type { AssistantPart, Message, ModelRequest, ToolDefinition } from './types.js';

type WireBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean };

type WireMessage = { role: 'user' | 'assistant'; content: WireBlock[] };

export interface BodySettings {
  model: string;
  maxTokens: number;
  temperature?: number;
  thinkingBudget?: number;
}

export function toRequestBody(settings: BodySettings, request: ModelRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: settings.model,
    max_tokens: settings.maxTokens,
    messages: toWireMessages(request.messages),
    stream: true,
  };
  if (request.system !== undefined && request.system !== '') body.system = request.system;
  if (request.tools.length > 0) body.tools = request.tools.map(toWireTool);
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.thinkingBudget !== undefined) {
    body.thinking = { type: 'enabled', budget_tokens: settings.thinkingBudget };
  }
  return body;
}

/**
 * Tool results travel as `tool_result` blocks in a user message, and the API
 * wants all results of one assistant turn in the next user message, so
 * consecutive user-side messages are merged.
 */
function toWireMessages(messages: readonly Message[]): WireMessage[] {
  const wire: WireMessage[] = [];
  const append = (role: WireMessage['role'], blocks: WireBlock[]): void => {
    if (blocks.length === 0) return;
    const last = wire[wire.length - 1];
    if (last !== undefined && last.role === role) last.content.push(...blocks);
    else wire.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        append('user', textBlock(message.content));
        break;
      case 'tool': {
        const block: WireBlock = { type: 'tool_result', tool_use_id: message.toolUseId, content: toolResultText(message) };
        if (message.isError) block.is_error = true;
        append('user', [block]);
        break;
      }
      case 'assistant':
        append('assistant', message.content.flatMap(toWireBlock));
        break;
      default:
        return message satisfies never;
    }
  }
  return wire;
}

/** A blank text block is left out (blank-text.ts); a message left empty is left out whole, and its neighbours of one role merge. */
function textBlock(text: string): WireBlock[] {
  return isBlankText(text) ? [] : [{ type: 'text', text }];
}

function toWireBlock(part: AssistantPart): WireBlock[] {
  switch (part.type) {
    case 'text':
      return textBlock(part.text);
    case 'thinking':
      if (part.redacted !== undefined) return [{ type: 'redacted_thinking', data: part.redacted }];
      // The API rejects thinking it cannot verify; unsigned thinking (from another provider) is dropped.
      return part.signature ? [{ type: 'thinking', thinking: part.text, signature: part.signature }] : [];
    case 'tool_call':
      return [{ type: 'tool_use', id: part.id, name: part.name, input: part.input ?? {} }];
    default:
      return part satisfies never;
  }
}

function toWireTool(tool: ToolDefinition): Record<string, unknown> {
  return { name: tool.name, description: tool.description, input_schema: tool.inputSchema };
}

export type WireUsage = z.infer<Schemas['usage']>;

type Tagged = z.ZodObject<{ type: z.ZodLiteral<string> }>;

/**
 * The known block kinds, checked strictly, or any other kind (tagged
 * `other`), so a new kind from the API is skipped rather than fatal.
 * (A plain union would only say "invalid input" for a broken known kind.)
 */
function openUnion<const T extends readonly Tagged[]>(known: T) {
  const byType = new Map<string, Tagged>(known.map((option) => [option.shape.type.value, option]));
  return z.looseObject({ type: z.string() }).transform((value, ctx) => {
    const schema = byType.get(value.type);
    if (schema === undefined) return { type: 'other' as const, kind: value.type };
    const result = schema.safeParse(value);
    if (result.success) return result.data as z.output<T[number]>;
    for (const issue of result.error.issues) {
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path, input: value });
    }
    return z.NEVER;
  });
}

// Built at a model's first stream (see lazy.ts), not when wasmhooks is imported.
const schemas = lazy(() => {
  const usage = z.object({
    input_tokens: z.number().nullish(),
    output_tokens: z.number().nullish(),
    cache_creation_input_tokens: z.number().nullish(),
    cache_read_input_tokens: z.number().nullish(),
  });

  const index = z.number().int().nonnegative();

  const events = {
    message_start: z.object({ message: z.object({ model: z.string(), usage: usage.nullish() }) }),
    content_block_start: z.object({
      index,
      // server_tool_use, web_search_tool_result, … are kept out of our model.
      content_block: openUnion([
        z.object({ type: z.literal('text'), text: z.string().nullish() }),
        z.object({ type: z.literal('thinking'), thinking: z.string().nullish(), signature: z.string().nullish() }),
        z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown().optional() }),
        z.object({ type: z.literal('redacted_thinking'), data: z.string() }),
      ]),
    }),
    content_block_delta: z.object({
      index,
      // citations_delta and future kinds pass as `other`.
      delta: openUnion([
        z.object({ type: z.literal('text_delta'), text: z.string() }),
        z.object({ type: z.literal('thinking_delta'), thinking: z.string() }),
        z.object({ type: z.literal('signature_delta'), signature: z.string() }),
        z.object({ type: z.literal('input_json_delta'), partial_json: z.string() }),
      ]),
    }),
    content_block_stop: z.object({ index }),
    message_delta: z.object({
      delta: z.object({ stop_reason: z.string().nullish() }),
      usage: usage.nullish(),
    }),
    message_stop: z.object({}),
    error: z.object({ error: z.object({ type: z.string().nullish(), message: z.string() }) }),
  } as const;

  const envelope = z.object({ type: z.string() });
  return { usage, events, envelope };
});
type Schemas = ReturnType<typeof schemas>;

/** The event kinds we act on; others (ping, future kinds) are skipped by type. */
export const eventSchemas = (): Schemas['events'] => schemas().events;
export type EventKind = keyof Schemas['events'];

export const envelopeSchema = (): Schemas['envelope'] => schemas().envelope;
