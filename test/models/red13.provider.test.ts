// red13: hostile provider answers (twins of test/xrt/red13.xrt.ts, which runs them on Node, Deno and Bun).
import { describe, expect, it } from 'vitest';
import { anthropicModel } from '../../host/models/anthropic.js';
import { openaiModel } from '../../host/models/openai.js';
import { readSse } from '../../host/models/sse.js';
import { endlessEventProvider, redirectingProvider } from '../fixtures/red13-providers.js';
import { collect, request } from './helpers.js';

describe('red13: a provider that redirects', () => {
  it.each([307, 308, 302])('%i to another origin: no request reaches it (API key, gateway header, conversation); BAD_REQUEST, not retried', async (status) => {
    const provider = await redirectingProvider(status);
    try {
      let sleeps = 0;
      const retry = { maxRetries: 3, sleep: async () => void sleeps++ };
      for (const model of [
        openaiModel({ model: 'm', baseURL: provider.url, apiKey: 'sk-secret', headers: { 'x-gateway-key': 'gw' }, retry }),
        anthropicModel({ model: 'm', baseURL: provider.url, apiKey: 'sk-ant-secret', retry }),
      ]) {
        const last = (await collect(model.stream(request()))).at(-1);
        expect(last).toMatchObject({ type: 'error', error: { code: 'BAD_REQUEST' } });
        expect(last?.type === 'error' && last.error.message).toMatch(/a redirect to http:\/\/localhost:\d+; redirects are not followed/);
      }
      expect(provider.caught).toEqual([]);
      expect(sleeps).toBe(0);
    } finally {
      await provider.close();
    }
  });
});

describe('red13: an event that never ends', () => {
  it('is cut at the cap: one broken end, the body cancelled', async () => {
    let pulls = 0;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++;
        controller.enqueue(new TextEncoder().encode(pulls === 1 ? 'data: x\n\ndata: ' : 'a'.repeat(1000)));
      },
      cancel() {
        cancelled = true;
      },
    });
    const items = [];
    for await (const item of readSse(body, new AbortController().signal, 5_000, 10_000)) items.push(item);
    expect(items[0]).toMatchObject({ kind: 'event', event: { data: 'x' } });
    expect(items.at(-1)).toMatchObject({ kind: 'end', end: { reason: 'broken' } });
    expect(JSON.stringify(items.at(-1))).toMatch(/MAX_PROVIDER_EVENT_BYTES/);
    expect(pulls).toBeLessThan(30);
    expect(cancelled).toBe(true);
  });

  it('many events of any total size pass (the cap is per event)', async () => {
    const event = `data: ${'b'.repeat(900)}\n\n`;
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (++pulls > 100) return controller.close();
        controller.enqueue(new TextEncoder().encode(event));
      },
    });
    const items = [];
    for await (const item of readSse(body, new AbortController().signal, 5_000, 10_000)) items.push(item);
    expect(items.filter((i) => i.kind === 'event')).toHaveLength(100);
    expect(items.at(-1)).toMatchObject({ kind: 'end', end: { reason: 'eof' } });
  });

  it('through openaiModel at the real cap: BAD_STREAM, the server stops short of 64 MiB', async () => {
    const provider = await endlessEventProvider(64 * 1024 * 1024);
    try {
      const last = (await collect(openaiModel({ model: 'm', baseURL: provider.url, retry: { maxRetries: 0 } }).stream(request()))).at(-1);
      expect(last).toMatchObject({ type: 'error', error: { code: 'BAD_STREAM' } });
      expect(provider.sent()).toBeLessThan(40 * 1024 * 1024);
    } finally {
      await provider.close();
    }
  });
});
