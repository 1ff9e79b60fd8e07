// Session 40 on Node, Deno and Bun against the build: no plugin or MCP output, however shaped, stalls
// the host's decoding or fails it with a raw engine error.
// 1. A describe answer of hundreds of thousands of empty entries in one repeated field (within the 1 MiB
//    output cap) is refused naming the field, the count and the cap; past the cap the entries are skipped
//    by their length, not decoded (decoding such an answer held the event loop a median 64-317 ms; now 6-20 ms).
// 2. JSON nested 100,000 deep from an MCP server (a tool's inputSchema of properties, items or allOf;
//    a result's structuredContent) is refused naming its source and the host's limit (64): the server
//    was lost with "Maximum call stack size exceeded", its other tools with it.
// 3. A call that allocates more blocks than Extism's JS runtime addresses (32,768) is a TRAP that says
//    so, in-thread and in a worker; the next call works; as a guard's hook the call is denied.
// Vitest twins that fail on the old code: test/protocol/repeated-caps.test.ts, test/mcp/red40.deep-json.test.ts,
// test/sandbox/red40.block-limit.test.ts.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import wabtInit from 'wabt';
import { createHost, createSandbox, loadPlugin, scriptedModel, tool } from '../../dist/index.js';
import type { HostEvent } from '../../dist/index.js';
import { asGuard } from '../fixtures/hostile/guard.ts';
import { hostile } from './wat.ts';
import { nodeTwin } from './twin.ts';
import { blocksPastLimit, guardPastLimit, type BlockApi } from '../sandbox/block-limit.ts';
import { describeFloodWat, FLOOD_SHAPES } from '../fixtures/hostile/describe-flood.ts';

const MIB = 1 << 20;
const fixture = fileURLToPath(new URL('../fixtures/mcp/hostile.mjs', import.meta.url));

async function assemble(source: string): Promise<Uint8Array<ArrayBuffer>> {
  const mod = (await wabtInit()).parseWat('red40.wat', source);
  try {
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

const floodRefusal = (shape: keyof typeof FLOOD_SHAPES) => {
  const field = { hooks: 'PluginInfo.hooks', tools: 'PluginInfo.tools', network_hosts: 'Grants.network_hosts', file_paths: 'Grants.file_paths', config_keys: 'Grants.config_keys' }[shape];
  const cap = shape === 'hooks' ? 64 : 256;
  return new RegExp(`describe output has ${FLOOD_SHAPES[shape].count(MIB)} entries in ${field} \\([a-z ]+\\); the limit is ${cap}$`);
};

const api = { createSandbox, loadPlugin, createHost, scriptedModel, tool } as unknown as BlockApi;

export const scenarios: Record<string, () => Promise<void>> = {
  'a 1 MiB describe answer of empty hooks entries (a worker plugin) is refused naming the field, count and cap': async () => {
    const error = await loadPlugin({ bytes: await assemble(describeFloodWat('hooks', MIB)) }, { isolation: 'worker', limits: { timeoutMs: 20_000 } }).then(
      (p) => (void p.close(), undefined),
      (e: unknown) => e,
    );
    assert.equal((error as { code?: string })?.code, 'BAD_OUTPUT', String(error));
    assert.match((error as Error).message, floodRefusal('hooks'));
  },

  'describe floods of tools and each grants list are refused naming the field, count and cap': async () => {
    for (const shape of ['tools', 'network_hosts', 'file_paths', 'config_keys'] as const) {
      const error = await loadPlugin({ bytes: await assemble(describeFloodWat(shape, MIB)) }, { limits: { timeoutMs: 20_000 } }).then(
        (p) => (void p.close(), undefined),
        (e: unknown) => e,
      );
      assert.equal((error as { code?: string })?.code, 'BAD_OUTPUT', `${shape}: ${String(error)}`);
      assert.match((error as Error).message, floodRefusal(shape));
    }
  },

  'an MCP tool whose inputSchema nests 100,000 levels (properties, items, allOf) is skipped naming it; the server\'s other tools run': async () => {
    for (const kind of ['props', 'items', 'allof']) {
      const host = createHost({
        model: scriptedModel({ turns: [{ toolCalls: [{ name: 'mcp__d__ok', input: {} }] }, { text: 'done' }] }),
        permissionMode: 'bypassPermissions',
        mcpServers: { d: { command: 'node', args: [fixture, 'deep'], env: { KIND: kind } } },
      });
      try {
        const events: HostEvent[] = [];
        for await (const e of host.session().stream('go')) events.push(e);
        const errors = events.filter((e) => e.type === 'mcp.server.error');
        assert.equal(errors.length, 1, `${kind}: ${JSON.stringify(errors).slice(0, 400)}`);
        assert.match((errors[0] as { message: string }).message, /^tool "deep" is skipped: its inputSchema nests arrays\/objects deeper than 64 levels/);
        assert.deepEqual(host.tools.list().map((t) => t.name), ['mcp__d__ok']);
        // The `ok` tool answers a structuredContent 100,000 arrays deep: an error result that says so.
        const out = events.find((e) => e.type === 'tool.output');
        assert.ok(out?.type === 'tool.output' && out.isError && /^the MCP tool's result was not read: its structuredContent nests arrays\/objects deeper than 64 levels/.test(out.content), JSON.stringify(out).slice(0, 300));
      } finally {
        await host.close();
      }
    }
  },

  'a call past 32,768 Extism blocks is a TRAP that says so (in-thread); the next call works': nodeTwin('test/sandbox/red40.block-limit.test.ts', 'blocksPastLimit', async () => {
    await blocksPastLimit(api, 'in-thread', await hostile('alloc-blocks'));
  }),
  'a guard (in a worker) whose hook allocates past 32,768 blocks fails closed with that TRAP; its next call runs': nodeTwin('test/sandbox/red40.block-limit.test.ts', 'guardPastLimit', async () => {
    const source = await readFile(new URL('../fixtures/hostile/alloc-blocks.wat', import.meta.url), 'utf8');
    await guardPastLimit(api, await assemble(asGuard(source, 'guard')), 'worker');
  }),
};
