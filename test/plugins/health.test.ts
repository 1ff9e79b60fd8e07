// A plugin's health transitions reach the running sessions as plugin.health
// events, and the host lists the plugins it uses.
import { describe, expect, it } from 'vitest';
import { createHost, loadPlugin, scriptedModel, type HostEvent } from '../../host/index.js';
import { encodePluginInfo } from '../../host/protocol/pb-codec.js';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';
import { cannedPlugin } from '../fixtures/canned.js';

const v1 = wasmhooks.v1;

describe('plugin health', () => {
  it('a guard whose answers are too large fails closed each time; degraded then quarantined show as plugin.health', async () => {
    // describe is fine; every hook answer (64 bytes) is over the 16-byte output cap: OUTPUT_TOO_LARGE.
    const plugin = await loadPlugin(
      {
        bytes: cannedPlugin({
          describe: encodePluginInfo({ name: 'flaky', version: '1', protocolVersion: 1, hooks: [{ event: v1.HookEvent.HOOK_EVENT_PRE_TOOL_USE }] }),
          hook: new Uint8Array(64),
        }),
      },
      { limits: { maxOutputBytes: 16 } },
    );
    const host = createHost({
      plugins: [plugin],
      permissionMode: 'bypassPermissions',
      model: scriptedModel({
        turns: [{ toolCalls: [1, 2, 3].map((n) => ({ name: 'Echo', input: { n } })) }, { text: 'done' }],
      }),
      tools: [
        {
          name: 'Echo',
          description: 'echo',
          inputSchema: { type: 'object' },
          kind: 'js',
          run: async (input: Record<string, unknown>) => ({ content: JSON.stringify(input), isError: false }),
        },
      ],
    });
    expect(host.plugins.map((p) => p.name)).toEqual(['flaky']);
    const events: HostEvent[] = [];
    for await (const e of host.session().stream('go')) events.push(e);
    expect(events.filter((e) => e.type === 'tool.denied')).toHaveLength(3);
    const health = events.filter((e) => e.type === 'plugin.health');
    expect(health.map((e) => e.type === 'plugin.health' && e.status)).toEqual(['degraded', 'quarantined']);
    expect(health[1]).toMatchObject({ plugin: 'flaky', failures: 3, message: expect.stringMatching(/OUTPUT_TOO_LARGE/) });
    await plugin.close();
  });
});

describe('GET /plugins on a bare host', () => {
  it('lists the loaded plugins with bindings, limits and health', async () => {
    const { createServer } = await import('../../host/entries/server.js');
    const guard = await loadPlugin({ path: new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url).pathname });
    const server = createServer(createHost({ plugins: [guard] }), {});
    const res = await server.app.request('/plugins');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { plugins: Array<Record<string, unknown>> };
    expect(body.plugins).toEqual([
      expect.objectContaining({
        name: 'guard-shell',
        version: '1.0.0',
        bindings: [expect.objectContaining({ event: 'PreToolUse', matcher: 'Bash|Shell' })],
        limits: expect.objectContaining({ timeoutMs: 100 }),
        health: 'healthy',
      }),
    ]);
    await guard.close();
  });
});
