// Review rv14 of red13's merge (model HTTP, stores, data dir, CLI/config) on Node, Deno and Bun, through the
// built ESM and the built CLI: each scenario is a hole, now closed, and fails on the old code.
// Vitest twins: test/agent/rv14.model-timeout.test.ts, test/cli/rv14.trust.test.ts.
import assert from 'node:assert/strict';
import { createHost, openaiModel } from '../../dist/index.js';
import { drippingProvider } from '../fixtures/rv14-providers.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const scenarios: Record<string, () => Promise<void>> = {
  'a provider dripping a comment every 50 ms (inside idleTimeoutMs) no longer holds the turn open: MODEL_TIMEOUT at modelTimeoutMs, the stream closed': async () => {
    const provider = await drippingProvider(50);
    try {
      const model = openaiModel({ model: 'm', baseURL: provider.url, apiKey: 'k', idleTimeoutMs: 5_000, retry: { maxRetries: 0 } });
      const host = createHost({ model, modelTimeoutMs: 600 });
      const started = Date.now();
      // Old code: no overall deadline; the race's 8 s side wins.
      const result = await Promise.race([host.session().prompt('hi'), sleep(8_000).then(() => 'still open' as const)]);
      assert.notEqual(result, 'still open', 'the turn was still open after 8 s');
      if (result === 'still open') return;
      assert.equal(result.subtype, 'error_during_execution');
      assert.equal(result.error?.code, 'MODEL_TIMEOUT');
      assert.match(result.error?.message ?? '', /600 ms \(modelTimeoutMs\)/);
      const took = Date.now() - started;
      assert.ok(took >= 550 && took < 5_000, `ended after ${took} ms`);
      for (let i = 0; i < 200 && provider.open(); i++) await sleep(10);
      assert.equal(provider.open(), false, 'the provider stream is still held');
      await host.close();
    } finally {
      await provider.close();
    }
  },
  'modelTimeoutMs is validated (0, negative, fractional refused) and a caller abort stays an abort, not MODEL_TIMEOUT': async () => {
    for (const bad of [0, -1, 1.5]) assert.throws(() => createHost({ modelTimeoutMs: bad }), /modelTimeoutMs/);
    const provider = await drippingProvider(50);
    try {
      const model = openaiModel({ model: 'm', baseURL: provider.url, apiKey: 'k', retry: { maxRetries: 0 } });
      const host = createHost({ model, modelTimeoutMs: 60_000 });
      const session = host.session();
      const running = session.prompt('hi');
      await sleep(200);
      session.abort();
      const result = await running;
      assert.equal(result.subtype, 'aborted');
      await host.close();
    } finally {
      await provider.close();
    }
  },
};
