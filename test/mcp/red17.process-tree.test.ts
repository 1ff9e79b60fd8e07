// Red review (red17): a stdio MCP server's process tree ends with it. The SDK's transport signalled only the
// process it spawned: what a server started (`sh -c 'helper & exec server'`, npx's child, worker processes) ran
// on after host.close(), re-parented to init.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { collect, ofType } from '../agent/helpers.js';
import { alive, untilDead } from './red17-helpers.js';

const fixture = fileURLToPath(new URL('../fixtures/mcp/server.mjs', import.meta.url));

/** A server behind `sh -c` that starts a helper in the background and writes its pid. */
function treeServer(): { config: { command: string; args: string[] }; pidFile: string } {
  const pidFile = join(mkdtempSync(join(tmpdir(), 'red17-')), 'helper.pid');
  return { pidFile, config: { command: 'sh', args: ['-c', `sleep 300 & echo $! > '${pidFile}'; exec '${process.execPath}' '${fixture}'`] } };
}

describe('a stdio MCP server\'s process tree (red17)', () => {
  it('host.close() ends what the server started, not only the server', async () => {
    const { config, pidFile } = treeServer();
    const host = createHost({ model: scriptedModel({ turns: [{ text: 'done' }] }), mcpServers: { tree: config } });
    const events = await collect(host.session(), 'go');
    expect(ofType(events, 'mcp.server.connected')[0]).toMatchObject({ server: 'tree' });
    const helper = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(helper)).toBe(true);
    await host.close();
    // Before: the helper (sleep 300) was still running here, and for the next five minutes.
    expect(await untilDead(helper, 3_000)).toBe(true);
  }, 30_000);

  it('a server that exits on its own takes its helpers with it', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'red17-')), 'helper.pid');
    const host = createHost({
      model: scriptedModel({ turns: [{ toolCalls: [{ name: 'mcp__tree__crash', input: {} }] }, { text: 'done' }] }),
      permissionMode: 'bypassPermissions',
      mcpServers: { tree: { command: 'sh', args: ['-c', `sleep 300 & echo $! > '${pidFile}'; exec '${process.execPath}' '${fixture}'`] } },
    });
    try {
      const events = await collect(host.session(), 'go');
      expect(ofType(events, 'tool.output')[0]).toMatchObject({ isError: true });
      expect(await untilDead(Number(readFileSync(pidFile, 'utf8')), 3_000)).toBe(true);
    } finally {
      await host.close();
    }
  }, 30_000);
});

describe.runIf(process.platform === 'linux')('a helper that leaves the group (red17)', () => {
  it('still cannot keep a crashed server\'s call waiting: the pipes are let go of', async () => {
    const host = createHost({
      model: scriptedModel({ turns: [{ toolCalls: [{ name: 'mcp__tree__crash', input: {} }] }, { text: 'done' }] }),
      permissionMode: 'bypassPermissions',
      mcpServers: { tree: { command: 'sh', args: ['-c', `setsid sleep 30 & exec '${process.execPath}' '${fixture}'`], timeoutMs: 20_000 } },
    });
    try {
      const started = performance.now();
      const events = await collect(host.session(), 'go');
      expect(ofType(events, 'tool.output')[0]?.content).toMatch(/MCP_CLOSED/);
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      await host.close();
    }
  }, 40_000);
});
