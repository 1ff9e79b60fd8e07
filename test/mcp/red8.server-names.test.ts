// Red review (red8), class "a name one rule reads two ways": MCP tools are `mcp__<server>__<tool>`.
// With "__" allowed in server names, server "a"'s tool "b__x" and server "a__b"'s tool "x" were both
// mcp__a__b__x, and a rule for server a__b (allowedTools: mcp__a__b__.*) also allowed server a's
// tools named b__*. Fails on the code before the fix.
import { describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { mcpServersSchema } from '../../host/mcp/config.js';

const server = { command: 'node', args: ['x.mjs'] };

describe('MCP server names', () => {
  it('"__" and a "_" at either end are refused: the first "__" after mcp__ always ends the server name', () => {
    for (const name of ['a__b', '_a', 'a_', 'a___b', '__']) {
      expect(mcpServersSchema().safeParse({ [name]: server }).success, name).toBe(false);
      expect(() => createHost({ mcpServers: { [name]: server } }), name).toThrow(new RegExp(`mcpServers\\.${name}`));
    }
  });

  it('ordinary names still pass', () => {
    for (const name of ['a', 'web-search', 'my_server', 'a_b_c', 'x1', 'a'.repeat(32)]) {
      expect(mcpServersSchema().safeParse({ [name]: server }).success, name).toBe(true);
    }
    expect(mcpServersSchema().safeParse({ ['a'.repeat(33)]: server }).success).toBe(false);
  });
});
