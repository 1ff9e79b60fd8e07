/**
 * `createHost(options)`: the one factory. Holds the model, the tool and hook
 * registries and the defaults; `host.session()` starts conversations.
 */
import type { z } from 'zod';
import { DEFAULT_MAX_AGENT_DEPTH, loopLimits, type AgentDefinition, type LoopSettings } from './agent/config.js';
import { DEFAULT_KEEP_TURNS } from './agent/compact.js';
import { Session, type SessionSettings } from './agent/session.js';
import { AGENT_TOOL } from './agent/subagent.js';
import { OpenedSessions } from './agent/opened.js';
import { defaultCwd } from './agent/paths.js';
import { WasmhooksError } from './errors.js';
import type { Emit, EmittedEvent } from './events/types.js';
import { EVERY_TOOL, compileToolMatcher } from './hooks/matcher.js';
import { HookRegistry } from './hooks/registry.js';
import type { HooksConfig } from './hooks/types.js';
import type { PluginContribution } from './tools/types.js';
import { AGENT_NAME, hostOptionsSchema, parse, sessionOptionsSchema, type HostOptions, type SessionOptions } from './host-options.js';
import type { McpServers } from './mcp/client.js';
import type { McpServersConfig } from './mcp/config.js';
import { scriptedModel } from './models/scripted.js';
import type { Model } from './models/types.js';
import { DEFAULT_PERMISSION_TIMEOUT_MS } from './permissions/resolve.js';
import type { PermissionMode } from './permissions/types.js';
import { persistTranscript, resumeAtOf } from './store/transcript.js';
import { ToolRegistry } from './tools/registry.js';

/** What `host.clear()` may change for the new conversation: everything but what names or continues one. */
export type ClearOptions = Omit<SessionOptions, 'sessionId' | 'history' | 'resumeAt' | 'transcriptPath' | 'agentId' | 'parentToolUseId' | 'startAs'>;

export interface Host {
  readonly model: Model;
  readonly hooks: HookRegistry;
  readonly tools: ToolRegistry;
  /** Starts a conversation (kept in the host's `store`, when it has one). */
  session(options?: SessionOptions): Session;
  /**
   * Continues a stored conversation: the next prompt sees every message of
   * it, and fires SessionStart with `source: 'resume'` (once per host: not
   * for a session this host already ran). Needs the host's `store`; an
   * unknown id is `NOT_FOUND`.
   */
  resume(id: string, options?: Omit<SessionOptions, 'sessionId' | 'history' | 'resumeAt'>): Promise<Session>;
  /**
   * Claude Code's `/clear`: closes `session` (SessionEnd, `reason: 'clear'`) and starts an empty
   * conversation under a new id, with the session's options (`options` override them), whose first
   * prompt fires SessionStart with `source: 'clear'`. The old conversation stays in the store
   * (`host.resume` continues it). A session this host did not start is `INVALID_OPTIONS`.
   *
   * @example
   * session = await host.clear(session);
   */
  clear(session: Session, options?: ClearOptions): Promise<Session>;
  /** The plugins added so far, in order. */
  readonly plugins: readonly PluginContribution[];
  /** Adds a plugin's hooks and tools (a WASM plugin loaded by host/plugins, say); its health changes become `plugin.health` events. */
  use(plugin: PluginContribution): void;
  /** Starts what the host otherwise starts at the first prompt (MCP servers); failures are events, never thrown. */
  ready(): Promise<void>;
  /** Closes what the host started (MCP servers). Sessions stay usable; servers restart at the next prompt. */
  close(): Promise<void>;
}

const rulesOf = (what: string, patterns: ReadonlyArray<string | RegExp> | undefined) =>
  (patterns ?? []).map((p, i) => compileToolMatcher(p, `${what}[${i}]`) ?? EVERY_TOOL);

/**
 * The host's MCP servers, built when they first start: the client (mcp/client.ts; the SDK itself
 * loads at the first connect) is then loaded, so `import 'wasmhooks'` does not parse it.
 */
function mcpServers(config: McpServersConfig, tools: ToolRegistry, announce: (event: EmittedEvent) => void): Pick<McpServers, 'ensure' | 'close'> {
  let servers: Promise<McpServers> | undefined;
  return {
    ensure: async () => (await (servers ??= import('./mcp/client.js').then((m) => new m.McpServers(config, tools, announce)))).ensure(),
    close: async () => (await servers)?.close(),
  };
}

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
  const o = parse(hostOptionsSchema(), options, 'createHost options');
  const model = o.model ?? scriptedModel();
  const hooks = new HookRegistry();
  const tools = new ToolRegistry();
  for (const t of o.tools ?? []) {
    tools.add(t);
    // The app's own names, in any letter case, are not a plugin's to take (a look-alike `deploy` beside `Deploy`).
    tools.reserve(t.name);
  }
  if (o.hooks) hooks.addConfig(o.hooks as HooksConfig);
  const agents = (o.agents ?? {}) as Record<string, AgentDefinition>;
  for (const name of Object.keys(agents)) {
    if (!AGENT_NAME.test(name)) throw new WasmhooksError('INVALID_OPTIONS', `invalid createHost options: agent name ${JSON.stringify(name)} must match ${AGENT_NAME.source}`);
  }
  if (Object.keys(agents).length > 0 && tools.get(AGENT_TOOL)) {
    throw new WasmhooksError('INVALID_OPTIONS', `a tool named "${AGENT_TOOL}" clashes with the sub-agent tool; rename it or drop the agents option`);
  }
  const subagents = Object.keys(agents).length > 0 ? { agents, maxDepth: o.maxAgentDepth ?? DEFAULT_MAX_AGENT_DEPTH, depth: 0 } : undefined;
  const compaction = {
    keepTurns: o.keepTurns ?? DEFAULT_KEEP_TURNS,
    ...(o.compactor ? { compactor: o.compactor } : {}),
    ...(o.contextWindow !== undefined ? { contextWindow: o.contextWindow } : {}),
  };
  const allow = rulesOf('allowedTools', o.allowedTools);
  const deny = rulesOf('disallowedTools', o.disallowedTools);
  let sessions = 0;
  const store = o.store;
  // Which sessions this host has started: a stored one it continues fires SessionStart `resume` once, not per object.
  const opened = new OpenedSessions();
  const plugins: PluginContribution[] = [];
  // Each session's options, for `clear` (a WeakMap: a dropped session is not kept alive by its host).
  const builtWith = new WeakMap<Session, ParsedSessionOptions>();
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
  const mcp = o.mcpServers && Object.keys(o.mcpServers).length > 0 ? mcpServers(o.mcpServers, tools, announce) : undefined;

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
      return open(parse(sessionOptionsSchema(), sessionOptions, 'session options'));
    },
    async resume(id, resumeOptions = {}) {
      if (!store) throw new WasmhooksError('INVALID_OPTIONS', 'host.resume() needs a store: createHost({ store: (await openStore({ kind: "file", dataDir })).store })');
      const history = await store.messages(id);
      const record = await store.get(id);
      if (history.length === 0 && !record) throw new WasmhooksError('NOT_FOUND', `no stored session ${id}`);
      const path = store.transcriptPath(id);
      const resumeAt = resumeAtOf(record);
      return host.session({ ...resumeOptions, sessionId: id, history, ...(path ? { transcriptPath: path } : {}), ...(resumeAt ? { resumeAt } : {}) });
    },
    async clear(session, clearOptions = {}) {
      const was = builtWith.get(session);
      if (!was) throw new WasmhooksError('INVALID_OPTIONS', `host.clear() takes a session this host started; ${session.id} is not one`);
      // What names or continues a conversation is the old one's; the rest carries over unless overridden.
      const changes = parse(sessionOptionsSchema().omit(NOT_CLEARED), clearOptions, 'clear options');
      const { sessionId, history, resumeAt, transcriptPath, agentId, parentToolUseId, startAs, ...kept } = was;
      await session.close({ reason: 'clear' });
      return open({ ...kept, ...changes, startAs: 'clear' });
    },
    async ready() {
      await mcp?.ensure();
    },
    async close() {
      await mcp?.close();
    },
  };
  /** A session from parsed options, kept in the host's store when it has one. */
  function open(s: ParsedSessionOptions): Session {
    if (store && s.transcriptPath === undefined) {
      s.sessionId ??= newSessionId(++sessions);
      const path = store.transcriptPath(s.sessionId);
      if (path !== undefined) s.transcriptPath = path;
    }
    const session = build(s);
    // A fresh session in a store starts an empty transcript; a resumed one continues after its history.
    if (store) {
      const record = { id: session.id, createdAt: Date.now(), prompts: s.resumeAt?.turn ?? 0, options: {} };
      persistTranscript(session, store, session.id, s.history?.length ?? 0, undefined, { from: s.resumeAt, record });
    }
    return session;
  }
  function build(s: ParsedSessionOptions): Session {
    const mode: PermissionMode = s.permissionMode ?? o.permissionMode ?? 'default';
    const canUseTool = s.canUseTool ?? o.canUseTool;
    const systemPrompt = s.systemPrompt ?? o.systemPrompt;
    const loop: LoopSettings = {
      sessionId: s.sessionId ?? newSessionId(++sessions),
      ...(s.agentId !== undefined ? { agentId: s.agentId } : {}),
      cwd: s.cwd ?? o.cwd ?? defaultCwd(),
      model,
      ...(systemPrompt !== undefined ? { systemPrompt } : {}),
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
      ...loopLimits(s, o),
      ...(subagents ? { subagents } : {}),
      compaction,
      ...(s.transcriptPath !== undefined ? { transcriptPath: s.transcriptPath } : {}),
    };
    const settings: SessionSettings = {
      loop,
      ...(s.parentToolUseId !== undefined ? { parentToolUseId: s.parentToolUseId } : {}),
      announcements,
      opened,
      ...(s.history ? { history: s.history } : {}),
      ...(s.resumeAt ? { resumeAt: s.resumeAt } : {}),
      ...(mcp ? { prepare: () => mcp.ensure() } : {}),
      ...(s.startAs ? { startAs: s.startAs } : {}),
    };
    const session = new Session(settings);
    builtWith.set(session, s);
    return session;
  }
  for (const p of o.plugins ?? []) host.use(p);
  return host;
}

type ParsedSessionOptions = z.output<ReturnType<typeof sessionOptionsSchema>>;

/** Options `host.clear()` does not take (ClearOptions): the old conversation's id, history and place in a store, and how it starts. */
const NOT_CLEARED = { sessionId: true, history: true, resumeAt: true, transcriptPath: true, agentId: true, parentToolUseId: true, startAs: true } as const;

function newSessionId(n: number): string {
  const c = globalThis.crypto as Crypto | undefined;
  return c?.randomUUID ? c.randomUUID() : `session-${Date.now().toString(36)}-${n}`;
}
