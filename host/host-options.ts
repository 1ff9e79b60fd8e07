/**
 * The options of `createHost` and `host.session()`: zod schemas (strict: a
 * misspelt key is an error, never dropped) and the types derived from them.
 */
import { z } from 'zod';
import type { AgentDefinition, Compactor } from './agent/config.js';
import { WasmhooksError } from './errors.js';
import { lazy } from './lazy.js';
import type { HooksConfig } from './hooks/types.js';
import type { PluginContribution, ToolHandler } from './tools/types.js';
import { mcpServersSchema, type McpServersConfig } from './mcp/config.js';
import type { Message, Model } from './models/types.js';
import type { CanUseTool } from './permissions/types.js';
import { RESUME_AT_MAX, type SessionStore } from './store/types.js';

export const AGENT_NAME = /^[A-Za-z0-9_-]{1,64}$/;

// Built at the first createHost (see lazy.ts): a program that only loads plugins never needs them.
const schemas = lazy(() => {
  const fn = <T>(what: string) => z.custom<T>((v) => typeof v === 'function', `${what} must be a function`);
  const permissionMode = z.enum(['default', 'acceptEdits', 'bypassPermissions', 'dontAsk']);
  const toolPattern = z.union([z.string(), z.instanceof(RegExp)]);

  // Strict: an unknown key (a misspelt timeout, say) must not be dropped silently.
  const matcherGroup = z
    .object({
      matcher: toolPattern.optional(),
      hooks: z.array(fn('each hook')),
      timeoutMs: z.number().positive().optional(),
      /** Seconds, as Claude's hook matchers write it. */
      timeout: z.number().positive().optional(),
      failurePolicy: z.enum(['fail-closed', 'fail-open']).optional(),
      name: z.string().optional(),
    })
    .strict();

  /** Options that a session may override. */
  const sessionFields = {
    cwd: z.string().min(1).optional(),
    systemPrompt: z.string().optional(),
    permissionMode: permissionMode.optional(),
    canUseTool: fn<CanUseTool>('canUseTool').optional(),
    /** Model calls allowed per prompt. Default 100. */
    maxTurns: z.number().int().positive().optional(),
    /** Stop-hook blocks allowed per prompt. Default 8. */
    stopHookCap: z.number().int().nonnegative().optional(),
    /** Concurrency-safe (read-only) calls of one batch that run at once. Default 8; 1 runs every call in turn. */
    maxParallelTools: z.number().int().positive().optional(),
    /** Messages the conversation may hold; past it a prompt ends with CONVERSATION_TOO_LARGE. Default 10 000. */
    maxMessages: z.number().int().positive().optional(),
    /** Characters of text the conversation may hold (outputs past it are dropped; then CONVERSATION_TOO_LARGE). Default 32 000 000. */
    maxConversationChars: z.number().int().positive().optional(),
    /** Longest one model call may take, request to message.end; past it the prompt ends with MODEL_TIMEOUT. Default 600 000 ms. */
    modelTimeoutMs: z.number().int().positive().optional(),
    /** Auto-compact when a model call's input reaches this fraction of the context window. Default 0.8; false: never. */
    autoCompact: z.union([z.number().gt(0).max(1), z.literal(false)]).optional(),
    /** How long the canUseTool callback may take. Default 300 000 ms; expiry denies. */
    permissionTimeoutMs: z.number().positive().optional(),
  };

  const modelSchema = z.custom<Model>((m) => typeof (m as Model | undefined)?.stream === 'function', 'model must implement Model (an object with stream())');

  const agentSchema = z
    .object({
      description: z.string().min(1),
      systemPrompt: z.string(),
      /** Host tool names it may use; default all. */
      tools: z.array(z.string()).optional(),
      model: modelSchema.optional(),
      maxTurns: z.number().int().positive().optional(),
    })
    .strict();

  const hostOptionsSchema = z
    .object({
      model: modelSchema.optional(),
      tools: z.array(z.custom<ToolHandler>((t) => typeof (t as ToolHandler | undefined)?.run === 'function', 'each tool must be a ToolHandler (see tool())')).optional(),
      hooks: z.record(z.string(), z.array(matcherGroup)).optional(),
      plugins: z.array(z.custom<PluginContribution>((p) => typeof (p as PluginContribution | undefined)?.hooks === 'function', 'each plugin must have hooks() and tools()')).optional(),
      /** Tool names (regex on the whole name) that run without asking. */
      allowedTools: z.array(toolPattern).optional(),
      /** Tool names (regex on the whole name) that never run, whatever a hook says. */
      disallowedTools: z.array(toolPattern).optional(),
      /** Sub-agents the `agent` tool can start, by name. */
      agents: z.record(z.string(), agentSchema).optional(),
      /** MCP servers whose tools join the registry as `mcp__<server>__<tool>` (the `.mcp.json` shape); started at the first prompt. */
      mcpServers: mcpServersSchema().optional(),
      /** Levels of sub-agents (1: sub-agents cannot start sub-agents). Default 1. */
      maxAgentDepth: z.number().int().positive().optional(),
      /** Replaces the default summarising compactor. */
      compactor: fn<Compactor>('compactor').optional(),
      /** Latest model turns the default compactor keeps verbatim. Default 2. */
      keepTurns: z.number().int().positive().optional(),
      /** Context window in tokens, for models that do not report one (auto-compaction needs one). */
      contextWindow: z.number().int().positive().optional(),
      /** Keeps every session's conversation (see `openStore`); `host.resume(id)` continues one. */
      store: z.custom<SessionStore>((s) => typeof (s as SessionStore | undefined)?.appendMessages === 'function', 'store must be a SessionStore (see openStore())').optional(),
      ...sessionFields,
    })
    .strict();

  const sessionOptionsSchema = z
    .object({
      sessionId: z.string().min(1).optional(),
      /** Set for a sub-agent's session: stamped on every event and hook input. */
      agentId: z.string().min(1).optional(),
      /** The parent's tool call that started this sub-agent (stamped on events). */
      parentToolUseId: z.string().min(1).optional(),
      /** Start from this conversation instead of an empty one (the first prompt's SessionStart says `source: 'resume'`, once per host). */
      history: z.array(z.custom<Message>((m) => typeof (m as Message | undefined)?.role === 'string', 'history entries must be messages')).readonly().optional(),
      /** Where the conversation is kept as JSONL; hook inputs carry it as `transcript_path`. */
      transcriptPath: z.string().min(1).optional(),
      /** Continuing a stored session (`host.resume` passes the store's): its events' `seq` and its prompts' `turn` go on after these. */
      resumeAt: z.object({ seq: z.number().int().nonnegative().max(RESUME_AT_MAX), turn: z.number().int().nonnegative().max(RESUME_AT_MAX) }).strict().optional(),
      /**
       * A new conversation that replaces a cleared one (Claude Code's `/clear`): its first prompt's SessionStart says
       * `source: 'clear'`. `host.clear()` sets it; a server that rebuilds a cleared session on another replica passes it.
       * A session given `history` continues that conversation instead (`resume`).
       */
      startAs: z.literal('clear').optional(),
      ...sessionFields,
    })
    .strict();
  return { hostOptionsSchema, sessionOptionsSchema };
});
type Schemas = ReturnType<typeof schemas>;

export const hostOptionsSchema = (): Schemas['hostOptionsSchema'] => schemas().hostOptionsSchema;
export const sessionOptionsSchema = (): Schemas['sessionOptionsSchema'] => schemas().sessionOptionsSchema;

export type HostOptions = Omit<z.input<Schemas['hostOptionsSchema']>, 'hooks' | 'agents' | 'compactor' | 'mcpServers'> & {
  hooks?: HooksConfig;
  /** MCP servers as tool sources, by name (see docs/mcp.md). */
  mcpServers?: McpServersConfig;
  /** Sub-agents the `agent` tool can start, by name. */
  agents?: Record<string, AgentDefinition>;
  /** Replaces the default summarising compactor (see docs/agent.md). */
  compactor?: Compactor;
};
export type SessionOptions = z.input<Schemas['sessionOptionsSchema']>;

/** Parses options, or throws INVALID_OPTIONS naming every problem. */
export function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const r = schema.safeParse(value ?? {});
  if (!r.success) throw new WasmhooksError('INVALID_OPTIONS', `invalid ${what}: ${z.prettifyError(r.error)}`);
  return r.data;
}

