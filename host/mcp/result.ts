/** Our tool outcomes as MCP tool results (the server side). */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolOutcome } from '../tools/types.js';

/** Our outcome as an MCP tool result (the server side). */
export function resultOf(outcome: ToolOutcome): CallToolResult {
  return { content: [{ type: 'text', text: outcome.content }], isError: outcome.isError };
}
