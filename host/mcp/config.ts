/**
 * MCP servers as tool sources, in the shape users already keep in `.mcp.json`
 * (Claude Code, Cursor): `{ "name": { "command", "args", "env" } }` for stdio,
 * `{ "name": { "url", "headers" } }` for Streamable HTTP. One schema for the
 * host options and for `wasmhooks.json`.
 */
import { z } from 'zod';
import { lazy } from '../lazy.js';

/**
 * Server names become part of tool names (`mcp__<server>__<tool>`), which permission rules and hook
 * matchers select by prefix. A name with "__" in it, or that starts or ends with "_", would make that
 * prefix ambiguous: server "a"'s tool "b__x" and server "a__b"'s tool "x" would both be
 * `mcp__a__b__x`, and a rule meant for one server (`mcp__a__b__.*`) would cover the other's tools.
 * Without them, the first "__" after `mcp__` always ends the server's name.
 */
const MCP_SERVER_NAME = /^(?=.{1,32}$)[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;

/** A call that has not answered after this long fails with MCP_TIMEOUT. */
export const DEFAULT_MCP_CALL_TIMEOUT_MS = 60_000;
/** Starting a server (spawn + initialize + tools/list) fails after this long. */
export const DEFAULT_MCP_START_TIMEOUT_MS = 30_000;
/** Tool results longer than this are cut (with a note) before hooks and the model see them. */
export const DEFAULT_MCP_MAX_OUTPUT_CHARS = 1_000_000;

// Built at first use (see lazy.ts): only a host or config file with MCP servers needs them.
const schemas = lazy(() => {
  const common = {
    /** Per-call deadline in ms. Default 60 000. */
    timeoutMs: z.number().int().positive().optional(),
    /** Startup deadline in ms (spawn/connect, initialize, tools/list). Default 30 000. */
    startTimeoutMs: z.number().int().positive().optional(),
    /** Longest tool result passed on, in characters. Default 1 000 000. */
    maxOutputChars: z.number().int().positive().optional(),
  };

  const stdioServer = z
    .object({
      type: z.literal('stdio').optional(),
      command: z.string().min(1, 'expected the command that starts the server'),
      args: z.array(z.string()).optional(),
      /** Exactly the environment the server gets (plus PATH-like basics the SDK adds); the host's is not leaked. */
      env: z.record(z.string(), z.string()).optional(),
      cwd: z.string().min(1).optional(),
      ...common,
    })
    .strict();

  const httpServer = z
    .object({
      type: z.literal('http').optional(),
      url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }),
      headers: z.record(z.string(), z.string()).optional(),
      ...common,
    })
    .strict();

  const server = z.union([stdioServer, httpServer], {
    error: 'expected a stdio server { "command", "args"?, "env"? } or an HTTP server { "url", "headers"? }',
  });

  const servers = z.record(z.string().regex(MCP_SERVER_NAME, 'server names must be 1-32 letters, digits, "-" and single "_" between them (no "__", no "_" at either end: the name is the prefix of its tools\' names, mcp__<server>__<tool>)'), server);
  return { stdioServer, httpServer, server, servers };
});
type Schemas = ReturnType<typeof schemas>;

/** Servers by name (the `.mcp.json` shape). */
export const mcpServersSchema = (): Schemas['servers'] => schemas().servers;

export type McpServerConfig = z.input<Schemas['server']>;
export type McpServersConfig = Record<string, McpServerConfig>;
export type McpStdioServer = z.output<Schemas['stdioServer']>;
type McpHttpServer = z.output<Schemas['httpServer']>;

export const isStdio = (s: z.output<Schemas['server']>): s is McpStdioServer => 'command' in s;

/**
 * The tool name hooks and the model see. Characters a model API refuses
 * become `_`; `undefined` when the result would be too long for them.
 */
export function mcpToolName(server: string, tool: string): string | undefined {
  const name = `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return name.length <= 64 ? name : undefined;
}
