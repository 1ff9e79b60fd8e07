// Red review (red4): a plugin's progress went to whichever tool call set the plugin's one progress slot last.
// Two sessions calling the same WASM tool at once (worker isolation: the progress arrives with the answer)
// had session A's progress delivered into session B's stream, and B's lost.
import { describe, expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { loadPlugin } from '../../host/plugins/load.js';
import { collect, ofType } from '../agent/helpers.js';
import { builtPlugin } from '../plugins-firstparty/wasm.js';

describe('progress belongs to its tool call', () => {
  for (const isolation of ['worker', 'in-thread'] as const) {
    it(`two sessions calling one plugin's tool at once each see only their own progress (${isolation})`, async () => {
      const plugin = await loadPlugin({ path: builtPlugin('calc') }, { isolation, limits: { timeoutMs: 5000 } });
      const host = (expression: string) =>
        createHost({ model: scriptedModel({ turns: [{ toolCalls: [{ name: 'calc', input: { expression } }] }, { text: 'done' }] }), plugins: [plugin], permissionMode: 'bypassPermissions' });
      const a = host(Array.from({ length: 200 }, () => '1').join('+'));
      const b = host('2');
      try {
        const [ea, eb] = await Promise.all([collect(a.session(), 'go'), collect(b.session(), 'go')]);
        const tokens = (events: typeof ea) => ofType(events, 'tool.progress').map((e) => (JSON.parse(e.progress) as { tokens: number }).tokens);
        expect(tokens(ea)).toEqual([399]);
        expect(tokens(eb)).toEqual([1]);
      } finally {
        await Promise.all([a.close(), b.close()]);
        await plugin.close();
      }
    }, 30_000);
  }
});
