/**
 * MCP servers as tool sources. Each configured server starts lazily (at the
 * first prompt), its tools join the host's registry as `mcp__<server>__<tool>`
 * and from then on are ordinary tools: every hook, matcher, permission rule
 * and guard applies to them. A server that fails to start, crashes, times out
 * or answers with an error gives the model a typed error result and the
 * stream an `mcp.server.*` event; it never hangs the loop. A crashed server is
 * started again at the next prompt.
 */
// The SDK is loaded on first connect, not at import: it is most of `import('wasmhooks')`'s time otherwise.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { messageOf } from '../errors.js';
import { nestsDeeper, tooDeep } from '../json.js';
import type { EmittedEvent, McpErrorCode } from '../events/types.js';
import type { ToolHandler, ToolOutcome, ToolRunContext } from '../tools/types.js';
import type { ToolRegistry } from '../tools/registry.js';
import {
  DEFAULT_MCP_CALL_TIMEOUT_MS,
  DEFAULT_MCP_MAX_OUTPUT_CHARS,
  DEFAULT_MCP_START_TIMEOUT_MS,
  isStdio,
  mcpServersSchema,
  mcpToolName,
  type McpServersConfig,
} from './config.js';
import { boundedFetch, listAllTools, MAX_MCP_MESSAGE_BYTES, MAX_SCHEMA_CHARS, TOO_LARGE, MAX_TOOLS, MIN_REFRESH_MS, NOT_READING, progressSink, REFRESH_DUTY } from './bounds.js';
import { outcomeOf } from './content-text.js';
import { untrustedOutputSchemas } from './output-schema.js';
import { MAX_TOOL_DESCRIPTION } from '../protocol/codec.js';
import { timerDelay } from '../timer.js';
import { describe, describedBy, quoted } from './text.js';

type ServerConfig = ReturnType<ReturnType<typeof mcpServersSchema>['parse']>[string];

interface ServerState {
  readonly name: string;
  readonly config: ServerConfig;
  client?: Client;
  starting?: Promise<Client | undefined>;
  /** Tool names this server has in the registry now. */
  registered: string[];
  /** The last lines the server wrote to stderr (stdio), for start-up errors. */
  stderr: string;
  /** Set while we close it ourselves: no `mcp.server.closed` error then. */
  closing: boolean;
  /** `tools/list_changed` refreshes: one at a time, at most one per MIN_REFRESH_MS. */
  refresh: { running: boolean; again: boolean; last: number; took: number; timer: ReturnType<typeof setTimeout> | undefined };
}

const STDERR_TAIL = 2_000;

/** The MCP servers of one host. */
export class McpServers {
  readonly #servers = new Map<string, ServerState>();

  constructor(
    config: McpServersConfig,
    private readonly tools: ToolRegistry,
    /** Host-wide events (reach every session with a prompt running). Contract: must not throw. */
    private readonly announce: (event: EmittedEvent) => void,
  ) {
    for (const [name, c] of Object.entries(mcpServersSchema().parse(config))) {
      this.#servers.set(name, { name, config: c, registered: [], stderr: '', closing: false, refresh: { running: false, again: false, last: -Infinity, took: 0, timer: undefined } });
    }
  }

  get names(): string[] {
    return [...this.#servers.keys()];
  }

  /** Starts every server that is not running (in parallel). Never throws: a failure is an event. */
  async ensure(): Promise<void> {
    await Promise.all([...this.#servers.values()].map((s) => this.#start(s)));
  }

  /** Closes every server (the host is done with them). */
  async close(): Promise<void> {
    await Promise.all(
      [...this.#servers.values()].map(async (s) => {
        const client = s.client ?? (await s.starting?.catch(() => undefined));
        s.closing = true;
        clearTimeout(s.refresh.timer);
        s.refresh.timer = undefined;
        this.#unregister(s);
        s.client = undefined;
        await client?.close().catch(() => {});
        s.closing = false;
      }),
    );
  }

  #start(s: ServerState): Promise<Client | undefined> {
    if (s.client) return Promise.resolve(s.client);
    s.starting ??= this.#connect(s).finally(() => (s.starting = undefined));
    return s.starting;
  }

  async #connect(s: ServerState): Promise<Client | undefined> {
    const c = s.config;
    const timeout = c.startTimeoutMs ?? DEFAULT_MCP_START_TIMEOUT_MS;
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const client = new Client(
      { name: 'wasmhooks', version: '0.1.0' },
      {
        // structuredContent is checked on RE2 within bounded work, as input is (output-schema.ts), not by Ajv.
        jsonSchemaValidator: untrustedOutputSchemas,
        listChanged: {
          // Our own refresh (#refreshSoon): every page, at a bounded rate. The SDK's reads one page, as often as asked.
          tools: { autoRefresh: false, onChanged: () => this.#refreshSoon(s, client) },
        },
      },
    );
    // A message over MAX_MCP_MESSAGE_BYTES in an SSE stream: the SDK reports it and would leave the call
    // waiting for its timeout. The server is closed (its calls fail now); it starts again at the next prompt.
    client.onerror = (error) => {
      if (messageOf(error).includes(TOO_LARGE)) void client.close().catch(() => {});
      // The stdio transport stopped a server that does not read (it closes itself): say why, once.
      if (messageOf(error).includes(NOT_READING)) this.#fail(s, 'MCP_PROTOCOL', messageOf(error));
    };
    client.onclose = () => {
      if (s.client !== client) return;
      s.client = undefined;
      clearTimeout(s.refresh.timer);
      s.refresh.timer = undefined;
      this.#unregister(s);
      // Not its stderr: mcp.server.* go to every live session, and what a server printed while one
      // session's call ran is that session's (a failing call's own tool result quotes the tail).
      if (!s.closing) this.announce({ type: 'mcp.server.closed', server: s.name, reason: 'the server closed the connection' });
    };
    try {
      const transport = await this.#transport(s);
      const deadline = performance.now() + timeout;
      await client.connect(transport, { timeout });
      const tools = await listAllTools(client, deadline, timeout);
      s.client = client;
      this.#register(s, client, tools);
      this.announce({ type: 'mcp.server.connected', server: s.name, transport: isStdio(c) ? 'stdio' : 'http', tools: [...s.registered] });
      return client;
    } catch (error) {
      await client.close().catch(() => {});
      this.#fail(s, 'MCP_START_FAILED', `could not start: ${describe(error)}${this.#tail(s)}`);
      return undefined;
    }
  }

  async #transport(s: ServerState): Promise<Transport> {
    const c = s.config;
    if (isStdio(c)) {
      // Loaded only when a stdio server is configured: it needs child_process. In its own process group, so that
      // closing it ends what it started too (stdio.ts).
      const { groupStdioTransport } = await import('./stdio.js');
      s.stderr = '';
      return groupStdioTransport({
        command: c.command,
        args: c.args,
        env: c.env,
        cwd: c.cwd,
        maxBufferSize: MAX_MCP_MESSAGE_BYTES,
        onStderr: (chunk) => (s.stderr = (s.stderr + chunk).slice(-STDERR_TAIL)),
      });
    }
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    // Every answer's body read under MAX_MCP_MESSAGE_BYTES (the SDK reads a body of any size).
    return new StreamableHTTPClientTransport(new URL(c.url), { requestInit: { headers: c.headers ?? {} }, fetch: boundedFetch() });
  }

  #register(s: ServerState, client: Client, tools: readonly Tool[]): void {
    this.#unregister(s);
    if (tools.length > MAX_TOOLS) {
      this.#fail(s, 'MCP_PROTOCOL', `the server lists ${tools.length} tools; only the first ${MAX_TOOLS} are used`);
    }
    let schemaChars = 0;
    const cut = tools.slice(0, MAX_TOOLS).filter((t) => (t.description?.length ?? 0) > MAX_TOOL_DESCRIPTION);
    if (cut.length > 0) {
      const names = cut.slice(0, 5).map((t) => quoted(t.name)).join(', ') + (cut.length > 5 ? `, and ${cut.length - 5} more` : '');
      this.#fail(s, 'MCP_PROTOCOL', `the descriptions of ${names} are cut at ${MAX_TOOL_DESCRIPTION} characters`);
    }
    for (const t of tools.slice(0, MAX_TOOLS)) {
      // The SDK parsed the listing whole (JSON.parse takes any depth); before anything here walks a
      // schema (the size below, the checker, the model's request), one nested too deep skips its tool.
      const deep = (['inputSchema', 'outputSchema'] as const).find((key) => nestsDeeper(t[key]));
      if (deep) {
        this.#fail(s, 'MCP_PROTOCOL', `tool ${quoted(t.name)} is skipped: ${tooDeep(`its ${deep}`)}`);
        continue;
      }
      schemaChars += JSON.stringify(t.inputSchema ?? {}).length;
      if (schemaChars > MAX_SCHEMA_CHARS) {
        this.#fail(s, 'MCP_PROTOCOL', `tool ${quoted(t.name)} and the ones after it are skipped: the server's input schemas pass ${MAX_SCHEMA_CHARS} characters`);
        break;
      }
      const name = mcpToolName(s.name, t.name);
      if (!name) {
        this.#fail(s, 'MCP_PROTOCOL', `tool ${quoted(t.name)} is skipped: mcp__${s.name}__<its name> is longer than 64 characters`);
        continue;
      }
      try {
        this.tools.add(this.#handler(s, client, t, name));
        s.registered.push(name);
      } catch (error) {
        this.#fail(s, 'MCP_PROTOCOL', `tool ${quoted(t.name)} is skipped: ${messageOf(error).slice(0, 300)}`);
      }
    }
  }

  /**
   * After `tools/list_changed`: list the tools again (every page, under the
   * start's deadline and caps), one refresh at a time, and the next no sooner
   * than MIN_REFRESH_MS, nor than REFRESH_DUTY times the last one took, after
   * the last began. Notifications meanwhile fold into one more refresh. A
   * server asking every 400 ms for a refresh of a 50,000-tool page kept the
   * host's CPU a quarter busy and stalled its event loop 400 ms at a time.
   */
  #refreshSoon(s: ServerState, client: Client): void {
    const r = s.refresh;
    if (r.running || r.timer !== undefined) {
      r.again = true;
      return;
    }
    r.timer = setTimeout(() => {
      r.timer = undefined;
      if (s.client === client) void this.#refresh(s, client);
    }, Math.max(0, r.last + Math.max(MIN_REFRESH_MS, REFRESH_DUTY * r.took) - performance.now()));
  }

  async #refresh(s: ServerState, client: Client): Promise<void> {
    const r = s.refresh;
    r.running = true;
    r.last = performance.now();
    const timeout = s.config.startTimeoutMs ?? DEFAULT_MCP_START_TIMEOUT_MS;
    try {
      const tools = await listAllTools(client, performance.now() + timeout, timeout);
      if (s.client === client) this.#register(s, client, tools);
    } catch (error) {
      if (s.client === client) this.#fail(s, 'MCP_PROTOCOL', `tools/list after list_changed failed: ${messageOf(error)}`);
    } finally {
      r.took = performance.now() - r.last;
      r.running = false;
      if (r.again && s.client === client) {
        r.again = false;
        this.#refreshSoon(s, client);
      }
    }
  }

  #unregister(s: ServerState): void {
    for (const name of s.registered) this.tools.remove(name);
    s.registered = [];
  }

  #handler(s: ServerState, client: Client, t: Tool, name: string): ToolHandler {
    return {
      name,
      description: describedBy(t.description ?? `${t.name} (MCP server ${s.name})`),
      inputSchema: t.inputSchema as Record<string, unknown>,
      kind: 'mcp',
      plugin: `mcp:${s.name}`,
      // The server's own word that the tool has no side effects lets calls overlap.
      ...(t.annotations?.readOnlyHint === true ? { concurrencySafe: true } : {}),
      run: (input, ctx) => this.#call(s, client, t.name, input, ctx),
    };
  }

  async #call(s: ServerState, client: Client, tool: string, input: Record<string, unknown>, ctx: ToolRunContext): Promise<ToolOutcome> {
    const c = s.config;
    const where = `MCP server "${s.name}" tool "${tool}"`;
    try {
      const result = await client.callTool({ name: tool, arguments: input }, undefined, {
        signal: ctx.signal,
        timeout: timerDelay(c.timeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS),
        onprogress: progressSink(ctx),
      });
      return outcomeOf(result as Parameters<typeof outcomeOf>[0], c.maxOutputChars ?? DEFAULT_MCP_MAX_OUTPUT_CHARS);
    } catch (error) {
      if (ctx.signal.aborted) return { content: `${where} was cancelled`, isError: true };
      const { ErrorCode, McpError } = await import('@modelcontextprotocol/sdk/types.js');
      const code: McpErrorCode =
        error instanceof McpError && error.code === ErrorCode.RequestTimeout ? 'MCP_TIMEOUT'
        : error instanceof McpError && error.code === ErrorCode.ConnectionClosed ? 'MCP_CLOSED'
        : 'MCP_ERROR';
      const message = `${describe(error)}${code === 'MCP_CLOSED' ? this.#tail(s) : ''}`;
      // Every live session sees mcp.server.error: the tool's name and the code, not the server's words
      // or its stderr (they can quote this call's input); the caller's tool result has them (rv12).
      this.#fail(s, code, `${tool}: the call failed (its tool result says why)`);
      return { content: `${where} failed [${code}]: ${message}`, isError: true };
    }
  }

  #fail(s: ServerState, code: McpErrorCode, message: string): void {
    this.announce({ type: 'mcp.server.error', server: s.name, code, message });
  }

  #tail(s: ServerState): string {
    const last = s.stderr.trim().split('\n').slice(-3).join(' | ');
    return last ? ` (stderr: ${last})` : '';
  }
}
