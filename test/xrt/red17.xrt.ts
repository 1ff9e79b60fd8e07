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
const hostile = fileURLToPath(new URL('../fixtures/mcp/hostile.mjs', import.meta.url));

/** One call of `tool` on the hostile fixture's server `o` in `mode`; the events, and the longest event-loop stall. */
async function hostileCall(mode: string, tool: string, env: Record<string, string> = {}, timeoutMs = 60_000): Promise<{ events: HostEvent[]; stall: number }> {
  const host = createHost({
    model: scriptedModel({ turns: [{ toolCalls: [{ name: `mcp__o__${tool}`, input: {} }] }, { text: 'done' }] }),
    permissionMode: 'bypassPermissions',
    mcpServers: { o: { command: 'node', args: [hostile, mode], env, timeoutMs } },
  });
  let stall = 0;
  let last = performance.now();
  const tick = setInterval(() => {
    stall = Math.max(stall, performance.now() - last);
    last = performance.now();
  }, 10);
  try {
    return { events: await collect(host), stall };
  } finally {
    clearInterval(tick);
    await host.close();
  }
}

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
  'an outputSchema\'s backtracking pattern runs on RE2: structuredContent that trips it fails the call in µs, not seconds': async () => {
    const { events, stall } = await hostileCall('outschema', 'shape');
    const out = events.find((e) => e.type === 'tool.output');
    assert.ok(out && out.type === 'tool.output' && out.isError && /MCP_ERROR.*output schema/.test(out.content), JSON.stringify(out));
    assert.ok(stall < 2_000, `the event loop stalled ${Math.round(stall)} ms`);
  },
  'an outputSchema nobody can read leaves the server started and its tools usable': async () => {
    const { events } = await hostileCall('outschema', 'odd', { ODD: '1' });
    assert.deepEqual(events.filter((e) => e.type === 'mcp.server.error'), []);
    const out = events.find((e) => e.type === 'tool.output');
    assert.ok(out && out.type === 'tool.output' && !out.isError && out.content === 'shaped', JSON.stringify(out));
  },
  'a stdio MCP server that floods requests and never reads is stopped at 1 MiB unread: its call fails (MCP_CLOSED), an event says why': async () => {
    // On Bun too since hk5 (its memory rose 1.5–3 GB before the stop: see test/xrt/hk5.xrt.ts).
    // MCP_CLOSED, not MCP_TIMEOUT: stopped before its 30 s deadline.
    const { events } = await hostileCall('pingflood', 'flood', {}, 30_000);
    const out = events.find((e) => e.type === 'tool.output');
    assert.ok(out && out.type === 'tool.output' && out.isError && /MCP_CLOSED/.test(out.content), JSON.stringify(out));
    const why = events.find((e) => e.type === 'mcp.server.error' && e.code === 'MCP_PROTOCOL');
    assert.ok(why && why.type === 'mcp.server.error' && /not reading what the host sends/.test(why.message), JSON.stringify(why));
  },
  'a server\'s sampling, elicitation and roots requests are refused (-32601); the call goes on': async () => {
    const { events } = await hostileCall('asks', 'ask');
    const out = events.find((e) => e.type === 'tool.output');
    const text = out && out.type === 'tool.output' ? out.content : '';
    for (const id of ['ask-sampling', 'ask-elicit', 'ask-roots']) assert.match(text, new RegExp(`${id}: \\{"code":-32601`));
  },
  'a million-character tool name is skipped with an event quoting 80 characters of it, not 2 MB': async () => {
    const { events } = await hostileCall('longname', 'ok');
    const error = events.find((e) => e.type === 'mcp.server.error');
    assert.ok(error && error.type === 'mcp.server.error' && error.message.length < 300 && /\(1000000 characters\)/.test(error.message), String(error && JSON.stringify(error).slice(0, 300)));
    const out = events.find((e) => e.type === 'tool.output');
    assert.ok(out && out.type === 'tool.output' && !out.isError, JSON.stringify(out));
  },
};
