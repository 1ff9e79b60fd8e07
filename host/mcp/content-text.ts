/**
 * An MCP tool result read as our tool outcome (the text the model reads, plus an error flag): what the
 * MCP client gets back, and what a PostToolUse hook's `updatedMCPToolOutput` means (hooks/output.ts).
 * Kept apart from the MCP client and server (loaded lazily) because the hook-answer reader, on the main
 * entry's static path, needs it.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolOutcome } from '../tools/types.js';
import { nestsDeeper, tooDeep } from '../json.js';

type Part = CallToolResult['content'][number];

/** Text parts joined; other parts named, so the model knows something was there. */
export function outcomeOf(result: { content?: unknown; structuredContent?: unknown; isError?: unknown; toolResult?: unknown }, maxChars: number): ToolOutcome {
  const parts = Array.isArray(result.content) ? (result.content as Part[]) : [];
  // Parsed by the SDK at any depth; written out below (a RangeError past some thousands).
  for (const key of ['structuredContent', 'toolResult'] as const) {
    if (nestsDeeper(result[key])) return { content: `the MCP tool's result was not read: ${tooDeep(`its ${key}`)}`, isError: true };
  }
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
