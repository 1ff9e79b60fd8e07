// Red review (red17) on Node, Deno and Bun, through the built ESM: MCP in both directions.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost, scriptedModel } from '../../dist/index.js';
import type { HostEvent } from '../../dist/index.js';
import { alive, untilDead } from '../mcp/red17-helpers.js';

const fixture = fileURLToPath(new URL('../fixtures/mcp/server.mjs', import.meta.url));

async function collect(host: ReturnType<typeof createHost>): Promise<HostEvent[]> {
  const events: HostEvent[] = [];
  for await (const e of host.session().stream('go')) events.push(e);
  return events;
}

function treeServer(prefix = '') {
  const pidFile = join(mkdtempSync(join(tmpdir(), 'red17-')), 'helper.pid');
  return { pidFile, config: { command: 'sh', args: ['-c', `${prefix}sleep 300 & echo $! > '${pidFile}'; exec node '${fixture}'`] } };
}

export const scenarios: Record<string, () => Promise<void>> = {
  'a stdio MCP server\'s helpers end with host.close() (its process group is signalled)': async () => {
    const { config, pidFile } = treeServer();
    const host = createHost({ model: scriptedModel({ turns: [{ text: 'done' }] }), mcpServers: { tree: config } });
    try {
      const events = await collect(host);
      assert.ok(events.some((e) => e.type === 'mcp.server.connected'), JSON.stringify(events.filter((e) => e.type.startsWith('mcp'))));
      assert.ok(alive(Number(readFileSync(pidFile, 'utf8'))));
    } finally {
      await host.close();
    }
    assert.ok(await untilDead(Number(readFileSync(pidFile, 'utf8')), 3_000), 'the helper outlived host.close()');
  },
  'a crashed stdio MCP server takes its helpers along, and its call fails at once (MCP_CLOSED)': async () => {
    const { config, pidFile } = treeServer();
    const host = createHost({
      model: scriptedModel({ turns: [{ toolCalls: [{ name: 'mcp__tree__crash', input: {} }] }, { text: 'done' }] }),
      permissionMode: 'bypassPermissions',
      mcpServers: { tree: { ...config, timeoutMs: 20_000 } },
    });
    try {
      const started = performance.now();
      const events = await collect(host);
      const out = events.find((e) => e.type === 'tool.output');
      assert.ok(out && out.type === 'tool.output' && /MCP_CLOSED/.test(out.content), JSON.stringify(out));
      assert.ok(performance.now() - started < 10_000, `took ${performance.now() - started} ms`);
      assert.ok(await untilDead(Number(readFileSync(pidFile, 'utf8')), 3_000), 'the helper outlived its server');
    } finally {
      await host.close();
    }
  },
};
