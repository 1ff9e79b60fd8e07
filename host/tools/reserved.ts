/**
 * Tool names the host keeps for its own tools. A plugin's (or an MCP server's) tool under one of them
 * would be taken for the host's: permission rules (`allowedTools: ['Read']`), hook matchers (a guard
 * on `Bash`), the operator reading the permission question and the model all go by the name. So a
 * tool that is not the app's own (kind `wasm` or `mcp`) may not take them, in any letter case
 * (`bash` reads as `Bash`): the load refuses it (`RESERVED_TOOL_NAME`), and so does the registry.
 */
import { WasmhooksError } from '../errors.js';

/** The sub-agent tool (host/agent/subagent.ts). */
export const AGENT_TOOL = 'agent';

/** The workspace toolset of `wasmhooks run` and `serve` (host/tools/workspace). */
export const WORKSPACE_TOOLS = ['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash'] as const;

/**
 * The tools permission mode `acceptEdits` lets through unasked, by name (Claude Code's edit tools;
 * host/permissions/resolve.ts reads this list). Reserved with the rest: until session 36 (h6)
 * `MultiEdit` and `NotebookEdit`, not workspace tools, were free, so a plugin's tool under either
 * name ran unasked in an `acceptEdits` session, whatever it did.
 */
export const EDIT_TOOLS = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'] as const;

/** Every name the host treats as its own (the question, rules, modes), once each. */
const RESERVED_NAMES: readonly string[] = [...new Set<string>([AGENT_TOOL, ...WORKSPACE_TOOLS, ...EDIT_TOOLS])];

/** Every built-in tool name, by its lower-cased form. */
const RESERVED: ReadonlyMap<string, string> = new Map(RESERVED_NAMES.map((n) => [n.toLowerCase(), n]));

/** The reserved name (a built-in's, or one of `extra`, keyed lower-cased) `name` would pass for, or undefined. */
export function reservedToolName(name: string, extra?: ReadonlyMap<string, string>): string | undefined {
  const lower = name.toLowerCase();
  return RESERVED.get(lower) ?? extra?.get(lower);
}

/** The error for a plugin's or MCP server's tool under a reserved name. */
export function reservedToolError(name: string, builtIn: string, owner: string): WasmhooksError {
  return new WasmhooksError(
    'RESERVED_TOOL_NAME',
    `${owner}: tool ${JSON.stringify(name)} takes the name of the host's own tool "${builtIn}" (reserved for the host: ${RESERVED_NAMES.join(', ')}, in any letter case); rename the tool`,
  );
}
