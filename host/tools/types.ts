/**
 * Tool contracts, whatever the tool's kind (JS, WASM, MCP), and what a
 * plugin contributes to a host: its hooks, its tools, its health and logs.
 */
import type { HookCommon, HookHandler, PluginLogLine } from '../hooks/types.js';

export type { PluginLogLine } from '../hooks/types.js';
import type { Health } from '../failure.js';

/** What a tool call returns to the model. */
export interface ToolOutcome {
  content: string;
  isError: boolean;
}

export type ToolInputCheck = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

export interface ToolRunContext {
  signal: AbortSignal;
  toolUseId: string;
  /** Session/turn fields for plugins (the protocol's `HookContext`). */
  context: HookCommon;
  /** Report progress; becomes a tool.progress event. Never throws. */
  onProgress(progress: string): void;
  /**
   * A plugin tool's log lines during this call: `plugin.log` events of this
   * call's session only (withheld, like progress, while an output hook reviews
   * the call). Absent (a call the embedder makes itself): the plugin's own
   * `onLog` listeners. Never throws.
   */
  onLog?(line: PluginLogLine): void;
}

/**
 * One tool, whatever its kind. The host validates input against
 * `inputSchema` (JS tools: against their zod schema) before `run`.
 *
 * Contract: `run` should not throw; a throw is caught and becomes an error
 * result (`isError: true`), which fires PostToolUseFailure.
 */
export interface ToolHandler {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the input (an object schema). */
  readonly inputSchema: Record<string, unknown>;
  readonly kind: 'js' | 'wasm' | 'mcp';
  readonly plugin?: string;
  /**
   * Safe to run at the same time as other such calls (read-only, no shared
   * state): consecutive calls of such tools in one batch overlap.
   */
  readonly concurrencySafe?: boolean;
  /**
   * Optional own validation (JS tools: their zod schema). Without it the host
   * validates against `inputSchema`. Contract: must not throw.
   */
  validate?(input: unknown): ToolInputCheck;
  run(input: Record<string, unknown>, ctx: ToolRunContext): Promise<ToolOutcome>;
}

/**
 * What a plugin gives the host. Implemented by host/plugins' `LoadedPlugin`.
 * The host calls `hooks()` and `tools()` once, when the plugin is added.
 */
export interface PluginContribution {
  readonly name: string;
  hooks(): HookHandler[];
  tools(): ToolHandler[];
  /** Health transitions (WASM plugins); the host forwards them as `plugin.health` events. Returns the unsubscribe function. */
  onHealth?(listener: (change: PluginHealthChange) => void): () => void;
  /**
   * Log lines of the plugin (Extism `log_*`, WASI stdout/stderr) written outside a session's call
   * (at load, or in a call the embedder makes itself); the host forwards them as `plugin.log` events.
   * A line written during a session's hook or tool call goes to that session alone
   * (`HookRunContext.onLog`, `ToolRunContext.onLog`).
   */
  onLog?(listener: (line: PluginLogLine) => void): () => void;
}


/** A plugin's health moved (see the sandbox's quarantine policy). */
export interface PluginHealthChange {
  plugin: string;
  status: Health;
  /** Consecutive failures so far (0 after a recovery). */
  failures: number;
  /** The failure behind the change, absent on recovery. */
  message?: string;
}
