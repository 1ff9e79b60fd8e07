/**
 * What `run` and `serve` add by default: the workspace toolset (confined to
 * the cwd) and the two first-party guards around it, guard-shell for Bash
 * and path-guard for the file tools, granted the workspace.
 */
import type { PluginEntry } from '../config/schema.js';
import type { ToolHandler } from '../tools/types.js';
import { WORKSPACE_TOOLS, workspaceTools, type WorkspaceToolName } from '../tools/workspace/index.js';
import { CliError, EXIT } from './exit.js';

/** Flags of `run` and `serve`. */
export interface WorkspaceFlags {
  /** `--tools Read,Grep` (a list), or `--no-tools` (false). */
  tools?: string | boolean;
  /** `--no-default-guards`: false. */
  defaultGuards?: boolean;
}

/** The tools `--tools` names, checked; `false` for none. */
function parseToolList(value: string | boolean | undefined): readonly WorkspaceToolName[] | false {
  if (value === false) return false;
  if (value === undefined || value === true) return WORKSPACE_TOOLS;
  const names = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = names.filter((n) => !(WORKSPACE_TOOLS as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw new CliError(`--tools: unknown tool ${unknown.map((n) => `"${n}"`).join(', ')}; choose from ${WORKSPACE_TOOLS.join(', ')} (or --no-tools)`, EXIT.USAGE);
  }
  if (names.length === 0) throw new CliError(`--tools: give a comma-separated list (${WORKSPACE_TOOLS.join(',')}) or --no-tools`, EXIT.USAGE);
  return names as WorkspaceToolName[];
}

export interface WorkspaceParts {
  tools: ToolHandler[];
  /** The offered read-only tools (Read, Glob, Grep): they run without the permission question (hooks still decide first). */
  readOnly: string[];
  /** Guard entries to load after the user's plugins (their guards decide first). */
  guards: Array<{ entry: PluginEntry; where: string }>;
}

/** The guards `run` and `serve` load unless told not to (workspaceParts). */
const DEFAULT_GUARDS: ReadonlySet<string> = new Set(['guard-shell', 'path-guard']);

/**
 * A configured `path-guard` or `guard-shell` replaces the default one. Only
 * a trusted config may do that: a cloned repository's path-guard granted
 * "/" (or a guard-shell of its own settings) took the default's place
 * unasked (red14). And without a `workspace` a path-guard denies every
 * file call (it fails closed), which is never what a user of `run` or
 * `serve` meant. Either is said before anything loads.
 */
export function checkConfiguredGuards(flags: WorkspaceFlags, entries: readonly PluginEntry[], trusted: boolean, file: string): void {
  if (flags.defaultGuards === false) return;
  const i = entries.findIndex((e) => e.name === 'path-guard' && !e.config?.['workspace']);
  if (i >= 0) {
    throw new CliError(
      `wasmhooks.json: plugins[${i}] loads path-guard without config.workspace, so it would deny every file call and replace the default path-guard ` +
        `(granted the working directory). Set "config": { "workspace": "/abs/dir,…" } with "grants": { "configKeys": ["workspace"] }, or remove the entry to get the default.`,
      EXIT.USAGE,
    );
  }
  const replacing = entries.findIndex((e) => e.name !== undefined && DEFAULT_GUARDS.has(e.name));
  if (replacing >= 0 && !trusted) {
    throw new CliError(
      `${file}: plugins[${replacing}] loads ${entries[replacing]!.name}, which replaces the default guard of that name, and the file is not trusted on this machine. ` +
        `Read it, then run \`wasmhooks trust ${file}\`, or run with --no-default-guards if you mean to go without the defaults.`,
      EXIT.USAGE,
    );
  }
}

/**
 * The toolset and the default guards for `cwd`. A guard the config or
 * `--plugin` already loads by name is not loaded twice.
 */
export async function workspaceParts(flags: WorkspaceFlags, cwd: string, alreadyNamed: ReadonlySet<string>): Promise<WorkspaceParts> {
  const list = parseToolList(flags.tools);
  const { root, tools } = list === false ? { root: cwd, tools: [] } : await workspaceTools({ dir: cwd, tools: list });
  const readOnly = tools.filter((t) => t.concurrencySafe === true).map((t) => t.name);
  if (flags.defaultGuards === false) return { tools, readOnly, guards: [] };
  // path-guard compares paths lexically: give it both spellings of the workspace when a link is involved.
  const roots = [...new Set([cwd, root])].join(',');
  const guards: Array<{ entry: PluginEntry & { name: string }; where: string }> = [
    // others: continue: the default guard only denies; a command it lets through still meets the permission
    // step (the terminal's question, rules, --permission-mode). With its own default (allow) a guard the user
    // never chose approved every other command, unasked, even where nobody was there to ask (red12).
    {
      entry: { name: 'guard-shell', grants: { configKeys: ['others'] }, config: { others: 'continue' } },
      where: 'default guard guard-shell (--no-default-guards to leave it out)',
    },
    {
      entry: { name: 'path-guard', grants: { configKeys: ['workspace'] }, config: { workspace: roots } },
      where: 'default guard path-guard (--no-default-guards to leave it out)',
    },
  ];
  return { tools, readOnly, guards: guards.filter((g) => !alreadyNamed.has(g.entry.name)) };
}
