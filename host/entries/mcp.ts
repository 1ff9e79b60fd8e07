// `wasmhooks/mcp`: the host's tools served over MCP (the MCP server SDK, and
// hono for Streamable HTTP). MCP servers used *as tool sources* need nothing
// from here: `createHost({ mcpServers })` loads the MCP client at first connect.
export { createMcpServer, DEFAULT_MCP_CONCURRENT_CALLS, relayModel, type McpServerOptions, type McpToolHost } from '../mcp/server.js';
export { mcpHttpApp, type McpHttpOptions } from '../mcp/http.js';
