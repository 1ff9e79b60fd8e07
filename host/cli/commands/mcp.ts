/**
 * `wasmhooks mcp`: the loaded plugins' tools (and the config's own MCP
 * servers' tools) served to any MCP client, over stdio or, with `--http`,
 * Streamable HTTP on loopback. Every call runs under the sandbox's limits
 * with the loaded guards around it; a denial or failure is an MCP tool error.
 */
import process from 'node:process';
import { createMcpServer, relayModel } from '../../mcp/server.js';
import { EXIT, type ExitCode } from '../exit.js';
import { untilStopped, type CliIO } from '../io.js';
import { setupHost, type HostFlags } from '../setup.js';
import { bearerToken } from '../token.js';

export interface McpFlags extends Omit<HostFlags, 'model' | 'baseUrl' | 'script' | 'maxTurns' | 'systemPrompt'> {
  http?: boolean;
  port?: number;
  hostname?: string;
  token?: string;
  maxConcurrentCalls?: number;
}

export async function mcpCommand(flags: McpFlags, io: CliIO): Promise<ExitCode> {
  // The MCP client asks its user before a call; our guards and rules still apply.
  const setup = await setupHost({ ...flags, permissionMode: flags.permissionMode ?? 'bypassPermissions' }, io, { model: relayModel() });
  const stopped = untilStopped((stop) => {
    if (!flags.http) process.stdin.once('end', stop);
  });
  const tools = setup.host.tools.list().length;
  try {
    if (flags.http) {
      const { mcpHttpApp } = await import('../../mcp/http.js');
      const token = bearerToken(flags, io);
      const served = await mcpHttpApp(setup.host, {
        port: flags.port ?? 4097,
        ...(flags.hostname ? { hostname: flags.hostname } : {}),
        ...(token ? { token } : {}),
        ...(flags.maxConcurrentCalls ? { maxConcurrentCalls: flags.maxConcurrentCalls } : {}),
      }).listen();
      io.stdout.write(`wasmhooks mcp on ${served.url}/mcp (${tools} tool${tools === 1 ? '' : 's'}${token ? ', bearer token required' : ''})\n`);
      await stopped;
      await served.close();
    } else {
      const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
      const server = createMcpServer(setup.host, flags.maxConcurrentCalls ? { maxConcurrentCalls: flags.maxConcurrentCalls } : {});
      await server.connect(new StdioServerTransport());
      // stdout carries the protocol: anything for a person goes to stderr.
      io.stderr.write(`wasmhooks mcp: serving ${tools} tool${tools === 1 ? '' : 's'} on stdio\n`);
      await stopped;
      await server.close();
    }
  } finally {
    await setup.close();
  }
  return EXIT.OK;
}
