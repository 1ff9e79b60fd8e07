// The SSE fast route (sse.ts `sseRoute`) takes only what it can answer exactly as the app would; the rest is left
// to the app (test/xrt/sse-route.xrt.ts compares the two ways on every runtime).
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../host/server/hub.js';
import { resolveServerOptions } from '../../host/server/options.js';
import { sseRoute } from '../../host/server/sse.js';
import { MemoryEventLog } from '../../host/store/memory-log.js';

const hub = () => new EventHub({ replayBufferSize: 10, heartbeatMs: 60_000, clientQueueLimit: 10, clientQueueBytes: 1 << 20, retryMs: 1000 }, new MemoryEventLog(10));
const request = (url: string, method = 'GET') => ({ url, method, headers: new Headers() }) as unknown as Request;

describe('sseRoute', () => {
  it('leaves path-only URLs (Bun without a usable Host), other methods, paths and encoded paths to the app', () => {
    const events = hub();
    const route = sseRoute(events, resolveServerOptions({}));
    for (const url of ['/event', '/global/event', 'http://127.0.0.1/%65vent', 'http://127.0.0.1/event/', 'http://127.0.0.1/session']) {
      expect(route(request(url)), url).toBeUndefined();
    }
    expect(route(request('http://127.0.0.1/event', 'HEAD'))).toBeUndefined();
    expect(route(request('http://127.0.0.1/event', 'POST'))).toBeUndefined();
    expect(route(request('http://127.0.0.1/event'))?.status).toBe(200);
    expect(events.clientCount).toBe(1);
    return events.close(10);
  });

  it('leaves every request to the app when CORS is configured (its middleware adds the headers)', () => {
    const route = sseRoute(hub(), resolveServerOptions({ corsOrigins: ['http://app.example'] }));
    expect(route(request('http://127.0.0.1/event'))).toBeUndefined();
  });
});
