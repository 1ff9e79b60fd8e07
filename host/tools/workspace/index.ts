/**
 * The workspace toolset of `wasmhooks run` and `serve`: Read, Write, Edit,
 * Glob, Grep and Bash, confined to one folder. Node-API modules (fs,
 * child_process; Deno and Bun implement them), so this is imported by the
 * CLI, not by the library's main entry.
 */
import type { ToolHandler } from '../types.js';
import { bashTool } from './bash.js';
import { workspaceRoot } from './confine.js';
import { editTool, readTool, writeTool } from './files.js';
import { DEFAULT_WORKSPACE_LIMITS, type WorkspaceLimits } from './limits.js';
import { globTool, grepTool } from './search.js';
import { WORKSPACE_TOOLS } from '../reserved.js';

export { OutsideWorkspaceError, confine } from './confine.js';

// The names are reserved: no plugin or MCP server tool may take them (tools/reserved.ts).
export { WORKSPACE_TOOLS };
export type WorkspaceToolName = (typeof WORKSPACE_TOOLS)[number];

export interface WorkspaceToolsOptions {
  /** The folder the tools may reach (its realpath is the fence). */
  dir: string;
  /** Which tools to offer; default all. */
  tools?: readonly WorkspaceToolName[];
  limits?: Partial<WorkspaceLimits>;
}

function make(name: WorkspaceToolName, root: string, limits: WorkspaceLimits): ToolHandler {
  switch (name) {
    case 'Read':
      return readTool(root, limits);
    case 'Write':
      return writeTool(root, limits);
    case 'Edit':
      return editTool(root, limits);
    case 'Glob':
      return globTool(root, limits);
    case 'Grep':
      return grepTool(root, limits);
    case 'Bash':
      return bashTool(root, limits);
    default: {
      const never: never = name;
      throw new Error(`unknown workspace tool ${String(never)}`);
    }
  }
}

/**
 * @example
 * const host = createHost({ tools: await workspaceTools({ dir: process.cwd(), tools: ['Read', 'Glob', 'Grep'] }) });
 */
export async function workspaceTools(options: WorkspaceToolsOptions): Promise<{ root: string; tools: ToolHandler[] }> {
  const root = await workspaceRoot(options.dir);
  const limits = { ...DEFAULT_WORKSPACE_LIMITS, ...options.limits };
  return { root, tools: [...new Set(options.tools ?? WORKSPACE_TOOLS)].map((name) => make(name, root, limits)) };
}
