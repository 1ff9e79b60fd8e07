// How the MCP client puts a server's own strings (tool names, descriptions, error messages) into
// events and the registry: bounded, since a server may send any string up to a 10 MB message.
import { messageOf } from '../errors.js';
import { MAX_TOOL_DESCRIPTION } from '../protocol/codec.js';

/** A server's tool description, cut at MAX_TOOL_DESCRIPTION (with a note that it was). */
export function describedBy(text: string): string {
  return text.length <= MAX_TOOL_DESCRIPTION ? text : `${text.slice(0, MAX_TOOL_DESCRIPTION)}… [cut at ${MAX_TOOL_DESCRIPTION} characters]`;
}

/**
 * A server's tool name as events quote it: at most 80 characters. A name is any string the server likes
 * (up to a 10 MB message): a 5 MB name, skipped for its length, was an `mcp.server.error` of 10 MB to every
 * live session and its replay log, again at each list_changed.
 */
export function quoted(name: string): string {
  return name.length <= 80 ? `"${name}"` : `"${name.slice(0, 80)}…" (${name.length} characters)`;
}

/** An error's message without the SDK's `MCP error -32601: ` prefix, for an `mcp.server.error` that carries its own code. */
export function describe(error: unknown): string {
  const m = messageOf(error);
  return m.replace(/^MCP error -?\d+: /, '');
}
