// `wasmhooks/mcp`: the host's tools served over MCP (the MCP server SDK, and
// hono for Streamable HTTP). MCP servers used *as tool sources* need nothing
// from here: `createHost({ mcpServers })` loads the MCP client at first connect.
export { createMcpServer, relayModel, type McpToolHost } from '../mcp/server.js';
export { mcpHttpApp, type McpHttpOptions } from '../mcp/http.js';
