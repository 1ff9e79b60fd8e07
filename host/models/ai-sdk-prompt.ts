/**
 * The AI SDK's message shapes both ways: our history as a `doStream` prompt,
 * and a streamed answer's parts assembled as the assistant message we keep.
 *
 * Providers put what a replayed turn needs in each part's provider metadata
 * (Anthropic thinking signatures and redacted data, Gemini thought signatures
 * on reasoning, text and function calls, OpenAI reasoning item ids). The AI
 * SDK's own `streamText` keeps a part's last metadata and sends it back as the
 * part's `providerOptions`; so do we, or the provider refuses the next turn.
 */
import { isBlankText, toolResultText } from './blank-text.js';
import type { AssistantPart, Message, ModelRequest, ProviderMetadata } from './types.js';

export function toPrompt(request: ModelRequest): unknown[] {
  const prompt: unknown[] = [];
  if (request.system) prompt.push({ role: 'system', content: request.system });
  for (const message of request.messages) {
    const part = toPromptMessage(message);
    // A message left with nothing (blank user text, an assistant turn of blank text) is left out whole, as
    // the Anthropic adapter does: every provider refuses a message without content.
    if (part.content.length === 0) continue;
    const last = prompt[prompt.length - 1] as { role?: string; content?: unknown[] } | undefined;
    // One tool message per batch of results, as the SDK's own converters produce.
    if (message.role === 'tool' && last?.role === 'tool') last.content?.push(...part.content);
    else prompt.push(part);
  }
  return prompt;
}

/** `providerOptions` for a part that came with provider metadata; nothing for one that did not. */
const withOptions = <T extends object>(part: T, metadata: ProviderMetadata | undefined): T => (metadata === undefined ? part : { ...part, providerOptions: metadata });

function toPromptMessage(message: Message): { role: string; content: unknown[] } {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: isBlankText(message.content) ? [] : [{ type: 'text', text: message.content }] };
    case 'tool':
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: message.toolUseId,
            toolName: message.toolName,
            output: { type: message.isError ? 'error-text' : 'text', value: toolResultText(message) },
          },
        ],
      };
    case 'assistant':
      return { role: 'assistant', content: message.content.flatMap(toPromptPart) };
    default:
      return message satisfies never;
  }
}

function toPromptPart(part: AssistantPart): unknown[] {
  switch (part.type) {
    case 'text':
      // A blank text part carries nothing unless its metadata does (a Gemini thought signature).
      return isBlankText(part.text) && part.providerMetadata === undefined ? [] : [withOptions({ type: 'text', text: part.text }, part.providerMetadata)];
    case 'thinking':
      // Anthropic's own redacted data means nothing to another provider; through the AI SDK it travels in the metadata.
      if (part.redacted !== undefined && part.providerMetadata === undefined) return [];
      return [withOptions({ type: 'reasoning', text: part.text }, part.providerMetadata)];
    case 'tool_call':
      return [withOptions({ type: 'tool-call', toolCallId: part.id, toolName: part.name, input: part.input }, part.providerMetadata)];
    default:
      return part satisfies never;
  }
}

type Open = Extract<AssistantPart, { type: 'text' | 'thinking' }>;

/**
 * The assistant message of one streamed answer, part by part as the AI SDK's
 * `streamText` assembles it: a text or reasoning part per id, in the order
 * they started, each with its last provider metadata; tool calls where they
 * came. (Consecutive deltas of two reasoning blocks are two parts: each has
 * its own signature.)
 */
export class AnswerParts {
  readonly parts: AssistantPart[] = [];
  private readonly open = new Map<string, Open>();

  /** A `text-*` or `reasoning-*` part; a delta whose id never started opens it (a v2 provider may omit the start). */
  add(type: 'text' | 'thinking', id: string, delta: string, metadata: ProviderMetadata | undefined): void {
    const key = `${type}:${id}`;
    const part: Open = this.open.get(key) ?? this.start(key, { type, text: '' } as Open);
    part.text += delta;
    if (metadata !== undefined) part.providerMetadata = metadata;
  }

  private start(key: string, part: Open): Open {
    this.open.set(key, part);
    this.parts.push(part);
    return part;
  }

  call(id: string, name: string, input: unknown, metadata: ProviderMetadata | undefined): void {
    this.parts.push(metadata === undefined ? { type: 'tool_call', id, name, input } : { type: 'tool_call', id, name, input, providerMetadata: metadata });
  }
}
