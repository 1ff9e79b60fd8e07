/**
 * OpenAI Chat Completions wire format: our messages and tools to the request
 * body, and the minimal shape of a streamed chunk.
 * https://platform.openai.com/docs/api-reference/chat/create
 */
import { z } from 'zod';
import { lazy } from '../lazy.js';
import { toolResultText } from './blank-text.js';
import type { Message, ModelRequest, ToolDefinition } from './types.js';

type WireToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };

type WireMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: WireToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface BodySettings {
  model: string;
  temperature?: number;
  maxTokens?: number;
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  includeUsage: boolean;
}

export function toRequestBody(settings: BodySettings, request: ModelRequest): Record<string, unknown> {
  const messages: WireMessage[] = [];
  if (request.system !== undefined && request.system !== '') {
    messages.push({ role: 'system', content: request.system });
  }
  for (const message of request.messages) messages.push(toWireMessage(message));
  const body: Record<string, unknown> = {
    model: settings.model,
    messages,
    stream: true,
  };
  if (settings.includeUsage) body.stream_options = { include_usage: true };
  if (request.tools.length > 0) body.tools = request.tools.map(toWireTool);
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.maxTokens !== undefined) body[settings.maxTokensField] = settings.maxTokens;
  return body;
}

function toWireMessage(message: Message): WireMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'tool':
      // Chat Completions has no error flag on tool results; say it in the text.
      return {
        role: 'tool',
        tool_call_id: message.toolUseId,
        content: message.isError ? `Error: ${toolResultText(message)}` : message.content,
      };
    case 'assistant': {
      let text = '';
      const calls: WireToolCall[] = [];
      // Thinking is dropped: Chat Completions has no field to send it back in.
      for (const part of message.content) {
        if (part.type === 'text') text += part.text;
        else if (part.type === 'tool_call') {
          const args = JSON.stringify(part.input ?? {});
          calls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: args } });
        }
      }
      const wire: WireMessage = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text };
      if (calls.length > 0) wire.tool_calls = calls;
      return wire;
    }
    default:
      return message satisfies never;
  }
}

function toWireTool(tool: ToolDefinition): Record<string, unknown> {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  };
}

/** One streamed chunk; fields we do not use are not checked. Built at a model's first stream (see lazy.ts). */
export const chunkSchema = lazy(() => {
  const toolCallDelta = z.object({
    index: z.number().int().nonnegative().optional(),
    id: z.string().nullish(),
    function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
  });

  return z.object({
    model: z.string().nullish(),
    choices: z
      .array(
        z.object({
          index: z.number().int().optional(),
          delta: z
            .object({
              content: z.string().nullish(),
              refusal: z.string().nullish(),
              // Reasoning text from DeepSeek, vLLM and llama.cpp (reasoning_content) or Ollama (reasoning).
              reasoning_content: z.string().nullish(),
              reasoning: z.string().nullish(),
              tool_calls: z.array(toolCallDelta).nullish(),
            })
            .nullish(),
          finish_reason: z.string().nullish(),
        }),
      )
      .nullish(),
    usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullish(),
    // Some servers report failures mid-stream as a chunk carrying `error`.
    error: z
      .object({
        message: z.string(),
        type: z.string().nullish(),
        code: z.union([z.string(), z.number()]).nullish(),
      })
      .nullish(),
  });
});

export type Chunk = z.infer<ReturnType<typeof chunkSchema>>;
