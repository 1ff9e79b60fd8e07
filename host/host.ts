/**
 * `createHost(options)`: the one factory. Holds the model, the tool and hook
 * registries and the defaults; `host.session()` starts conversations.
 */
import { z } from 'zod';
import { DEFAULT_MAX_PARALLEL_TOOLS, type AgentDefinition, type Compactor } from './agent/config.js';
import { DEFAULT_KEEP_TURNS } from './agent/compact.js';
import { Session, type SessionSettings } from './agent/session.js';
import { AGENT_TOOL } from './agent/subagent.js';
import { defaultCwd } from './agent/paths.js';
import { WasmhooksError } from './errors.js';
import type { Emit, EmittedEvent } from './events/types.js';
import { EVERY_TOOL, compileToolMatcher } from './hooks/matcher.js';
import { HookRegistry } from './hooks/registry.js';
import type { HooksConfig, PluginContribution, ToolHandler } from './hooks/types.js';
import { McpServers } from './mcp/client.js';
import { mcpServersSchema, type McpServersConfig } from './mcp/config.js';
import { scriptedModel } from './models/scripted.js';
import type { Message, Model } from './models/types.js';
import { DEFAULT_PERMISSION_TIMEOUT_MS } from './permissions/resolve.js';
import type { CanUseTool, PermissionMode } from './permissions/types.js';
import { persistTranscript } from './store/transcript.js';
import type { SessionStore } from './store/types.js';
import { ToolRegistry } from './tools/registry.js';

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
  /** Auto-compact when a model call's input reaches this fraction of the context window. Default 0.8; false: never. */
  autoCompact: z.union([z.number().gt(0).max(1), z.literal(false)]).optional(),
  /** How long the canUseTool callback may take. Default 300 000 ms; expiry denies. */
  permissionTimeoutMs: z.number().positive().optional(),
};

const modelSchema = z.custom<Model>((m) => typeof (m as Model | undefined)?.stream === 'function', 'model must implement Model (an object with stream())');

const AGENT_NAME = /^[A-Za-z0-9_-]{1,64}$/;
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
    mcpServers: mcpServersSchema.optional(),
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
    /** Start from this conversation instead of an empty one (no SessionStart on the first prompt). */
    history: z.array(z.custom<Message>((m) => typeof (m as Message | undefined)?.role === 'string', 'history entries must be messages')).readonly().optional(),
    /** Where the conversation is kept as JSONL; hook inputs carry it as `transcript_path`. */
    transcriptPath: z.string().min(1).optional(),
    ...sessionFields,
  })
  .strict();

export type HostOptions = Omit<z.input<typeof hostOptionsSchema>, 'hooks' | 'agents' | 'compactor' | 'mcpServers'> & {
  hooks?: HooksConfig;
  /** MCP servers as tool sources, by name (see docs/mcp.md). */
  mcpServers?: McpServersConfig;
  /** Sub-agents the `agent` tool can start, by name. */
  agents?: Record<string, AgentDefinition>;
  /** Replaces the default summarising compactor (see docs/agent.md). */
  compactor?: Compactor;
};
export type SessionOptions = z.input<typeof sessionOptionsSchema>;

export interface Host {
  readonly model: Model;
  readonly hooks: HookRegistry;
  readonly tools: ToolRegistry;
  /** Starts a conversation (kept in the host's `store`, when it has one). */
  session(options?: SessionOptions): Session;
  /**
   * Continues a stored conversation: the next prompt sees every message of
   * it. Needs the host's `store`; an unknown id is `NOT_FOUND`.
   */
  resume(id: string, options?: Omit<SessionOptions, 'sessionId' | 'history'>): Promise<Session>;
  /** The plugins added so far, in order. */
  readonly plugins: readonly PluginContribution[];
  /** Adds a plugin's hooks and tools (a WASM plugin loaded by host/plugins, say); its health changes become `plugin.health` events. */
  use(plugin: PluginContribution): void;
  /** Starts what the host otherwise starts at the first prompt (MCP servers); failures are events, never thrown. */
  ready(): Promise<void>;
  /** Closes what the host started (MCP servers). Sessions stay usable; servers restart at the next prompt. */
  close(): Promise<void>;
}

function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const r = schema.safeParse(value ?? {});
  if (!r.success) throw new WasmhooksError('INVALID_OPTIONS', `invalid ${what}: ${z.prettifyError(r.error)}`);
  return r.data;
}

const rulesOf = (what: string, patterns: ReadonlyArray<string | RegExp> | undefined) =>
  (patterns ?? []).map((p, i) => compileToolMatcher(p, `${what}[${i}]`) ?? EVERY_TOOL);

/**
 * @example
 * const host = createHost({
 *   model: scriptedModel([{ text: 'Hello!' }]),
 *   tools: [tool('Echo', 'Echo text', z.object({ text: z.string() }), ({ text }) => text)],
 *   hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [async () => ({ decision: 'deny', reason: 'no shell' })] }] },
 * });
 * const result = await host.session().prompt('hi');
 */
export function createHost(options: HostOptions = {}): Host {
  const o = parse(hostOptionsSchema, options, 'createHost options');
  const model = o.model ?? scriptedModel();
  const hooks = new HookRegistry();
  const tools = new ToolRegistry();
  for (const t of o.tools ?? []) tools.add(t);
  if (o.hooks) hooks.addConfig(o.hooks as HooksConfig);
  const agents = (o.agents ?? {}) as Record<string, AgentDefinition>;
  for (const name of Object.keys(agents)) {
    if (!AGENT_NAME.test(name)) throw new WasmhooksError('INVALID_OPTIONS', `invalid createHost options: agent name ${JSON.stringify(name)} must match ${AGENT_NAME.source}`);
  }
  if (Object.keys(agents).length > 0 && tools.get(AGENT_TOOL)) {
    throw new WasmhooksError('INVALID_OPTIONS', `a tool named "${AGENT_TOOL}" clashes with the sub-agent tool; rename it or drop the agents option`);
  }
  const subagents = Object.keys(agents).length > 0 ? { agents, maxDepth: o.maxAgentDepth ?? 1, depth: 0 } : undefined;
  const compaction = {
    keepTurns: o.keepTurns ?? DEFAULT_KEEP_TURNS,
    ...(o.compactor ? { compactor: o.compactor } : {}),
    ...(o.contextWindow !== undefined ? { contextWindow: o.contextWindow } : {}),
  };
  const allow = rulesOf('allowedTools', o.allowedTools);
  const deny = rulesOf('disallowedTools', o.disallowedTools);
  let sessions = 0;
  const store = o.store;
  const plugins: PluginContribution[] = [];
  // Emitters of the sessions with a prompt running: plugin health goes to them.
  const live = new Set<Emit>();
  const announcements = {
    subscribe(emit: Emit) {
      live.add(emit);
      return () => void live.delete(emit);
    },
  };

  const announce = (event: EmittedEvent) => {
    for (const emit of live) emit(event);
  };
  const mcp = o.mcpServers && Object.keys(o.mcpServers).length > 0 ? new McpServers(o.mcpServers, tools, announce) : undefined;

  const host: Host = {
    model,
    hooks,
    tools,
    plugins,
    use(plugin) {
      const contributed = plugin.tools();
      const handlers = plugin.hooks();
      // Tools first, all-or-nothing: a name clash leaves the host unchanged.
      const added: string[] = [];
      try {
        for (const t of contributed) {
          tools.add(t);
          added.push(t.name);
        }
        const ids: string[] = [];
        try {
          for (const h of handlers) ids.push(hooks.addHandler(h));
        } catch (e) {
          for (const id of ids) hooks.remove(id);
          throw e;
        }
      } catch (e) {
        for (const name of added) tools.remove(name);
        throw e;
      }
      plugins.push(plugin);
      plugin.onHealth?.((change) => announce({ type: 'plugin.health', ...change }));
      plugin.onLog?.((line) => announce({ type: 'plugin.log', ...line }));
    },
    session(sessionOptions = {}) {
      const s = parse(sessionOptionsSchema, sessionOptions, 'session options');
      if (store && s.transcriptPath === undefined) {
        s.sessionId ??= newSessionId(++sessions);
        const path = store.transcriptPath(s.sessionId);
        if (path !== undefined) s.transcriptPath = path;
      }
      const session = build(s);
      // A fresh session in a store starts an empty transcript; a resumed one continues after its history.
      if (store) persistTranscript(session, store, session.id, s.history?.length ?? 0);
      return session;
    },
    async resume(id, resumeOptions = {}) {
      if (!store) throw new WasmhooksError('INVALID_OPTIONS', 'host.resume() needs a store: createHost({ store: (await openStore({ kind: "file", dataDir })).store })');
      const history = await store.messages(id);
      if (history.length === 0 && !(await store.get(id))) throw new WasmhooksError('NOT_FOUND', `no stored session ${id}`);
      const path = store.transcriptPath(id);
      return host.session({ ...resumeOptions, sessionId: id, history, ...(path ? { transcriptPath: path } : {}) });
    },
    async ready() {
      await mcp?.ensure();
    },
    async close() {
      await mcp?.close();
    },
  };
  function build(s: z.output<typeof sessionOptionsSchema>): Session {
    const mode: PermissionMode = s.permissionMode ?? o.permissionMode ?? 'default';
    const canUseTool = s.canUseTool ?? o.canUseTool;
    const settings: SessionSettings = {
      id: s.sessionId ?? newSessionId(++sessions),
      ...(s.agentId !== undefined ? { agentId: s.agentId } : {}),
      ...(s.parentToolUseId !== undefined ? { parentToolUseId: s.parentToolUseId } : {}),
      cwd: s.cwd ?? o.cwd ?? defaultCwd(),
      model,
      ...((s.systemPrompt ?? o.systemPrompt) !== undefined ? { systemPrompt: (s.systemPrompt ?? o.systemPrompt) as string } : {}),
      tools,
      hooks,
      permissions: {
        mode,
        allow,
        deny,
        ...(canUseTool ? { canUseTool } : {}),
        timeoutMs: s.permissionTimeoutMs ?? o.permissionTimeoutMs ?? DEFAULT_PERMISSION_TIMEOUT_MS,
        alwaysAllowed: new Set(),
      },
      maxTurns: s.maxTurns ?? o.maxTurns ?? 100,
      stopHookCap: s.stopHookCap ?? o.stopHookCap ?? 8,
      maxParallelTools: s.maxParallelTools ?? o.maxParallelTools ?? DEFAULT_MAX_PARALLEL_TOOLS,
      autoCompact: s.autoCompact ?? o.autoCompact ?? 0.8,
      ...(subagents ? { subagents } : {}),
      compaction,
      announcements,
      ...(s.history ? { history: s.history } : {}),
      ...(s.transcriptPath !== undefined ? { transcriptPath: s.transcriptPath } : {}),
      ...(mcp ? { prepare: () => mcp.ensure() } : {}),
    };
    return new Session(settings);
  }
  for (const p of o.plugins ?? []) host.use(p);
  return host;
}

function newSessionId(n: number): string {
  const c = globalThis.crypto as Crypto | undefined;
  return c?.randomUUID ? c.randomUUID() : `session-${Date.now().toString(36)}-${n}`;
}
