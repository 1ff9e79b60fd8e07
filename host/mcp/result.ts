/** MCP tool results ⇄ our tool outcomes (text the model reads, plus an error flag). */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolOutcome } from '../tools/types.js';

type Part = CallToolResult['content'][number];

/** Text parts joined; other parts named, so the model knows something was there. */
export function outcomeOf(result: { content?: unknown; structuredContent?: unknown; isError?: unknown; toolResult?: unknown }, maxChars: number): ToolOutcome {
  const parts = Array.isArray(result.content) ? (result.content as Part[]) : [];
  let text = parts.map(partText).join('\n');
  if (!text && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  // Protocol 2024-10-07 (still among the SDK's supported versions) answered `{ toolResult }`; the SDK passes it through.
  if (!text && parts.length === 0 && result.toolResult !== undefined) text = JSON.stringify(result.toolResult) ?? '';
  if (text.length > maxChars) text = `${text.slice(0, maxChars)}\n[cut: the tool returned ${text.length} characters, more than ${maxChars}]`;
  return { content: text, isError: result.isError === true };
}

function partText(p: Part): string {
  switch (p.type) {
    case 'text':
      return p.text;
    case 'image':
    case 'audio':
      return `[${p.type}: ${p.mimeType}]`;
    case 'resource':
      return 'text' in p.resource && typeof p.resource.text === 'string' ? p.resource.text : `[resource: ${p.resource.uri}]`;
    case 'resource_link':
      return `[resource link: ${p.uri}]`;
    default:
      return `[${(p as { type: string }).type}]`;
  }
}

/** Our outcome as an MCP tool result (the server side). */
export function resultOf(outcome: ToolOutcome): CallToolResult {
  return { content: [{ type: 'text', text: outcome.content }], isError: outcome.isError };
}
