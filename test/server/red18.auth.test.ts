// Review red18: the bearer comparison's work must not depend on the configured token (its length included).
// The old loop ran over the token's bytes per request, so a request's time told the token's length.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { bearerCheck, safeEqual } from '../../host/server/auth.js';
import { realHost } from './real-host.js';

const servers: WasmhooksServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** ms for `n` refused requests (a wrong 20-character token) through the app. */
async function refusedTime(token: string, n: number): Promise<number> {
  const server = createServer(realHost(), { token });
  servers.push(server);
  const wrong = { authorization: 'Bearer wrong-token-0123456789' };
  expect((await server.app.request('/health', { headers: wrong })).status).toBe(401);
  const start = performance.now();
  for (let i = 0; i < n; i++) expect((await server.app.request('/health', { headers: wrong })).status).toBe(401);
  return performance.now() - start;
}

describe('red18: the token comparison', () => {
  it('still compares in full', () => {
    const token = 'correct-horse-battery-staple';
    expect(safeEqual(token, token)).toBe(true);
    for (const other of [token.slice(0, -1), `${token}x`, '', token.toUpperCase()]) expect(safeEqual(other, token)).toBe(false);
    const check = bearerCheck(token);
    expect(() => check(`Bearer ${token}`)).not.toThrow();
    expect(() => check(`bearer   ${token} `)).not.toThrow();
    for (const header of [undefined, '', token, `Bearer ${token}x`, `Basic ${token}`]) expect(() => check(header)).toThrow(/bearer token/);
  });

  // About timing, with slack: the old comparison walked the token's 8 MiB per request (hundreds of times slower
  // than a 16-byte token); now both cost a hash of the guess. 10x and 100 ms of room for a loaded machine.
  it("a request's time does not grow with the configured token's length", async () => {
    const short = await refusedTime('s'.repeat(16), 40);
    const long = await refusedTime('L'.repeat(8 << 20), 40);
    expect(long).toBeLessThan(short * 10 + 100);
  });
});
