// Review rhttp: variants of the browser checks (guards.ts) sent over each runtime's own parser, pinned because
// each runtime reads them its own way and a change of parser or route could let one through: a path spelled with
// an escape (which the SSE fast route leaves to the app), headers given twice (joined by every runtime here), a
// Host from another site with a loopback one beside it. All refused today on Node, Deno and Bun.
import assert from 'node:assert/strict';
import { runtimeName } from '../../dist/server.js';
import { get, rawRequest } from './raw-http.ts';
import { errorOf, withServer } from './red6-helpers.ts';

const runtime = runtimeName();
const EMBEDDED = ['Sec-Fetch-Site: cross-site', 'Sec-Fetch-Mode: no-cors', 'Sec-Fetch-Dest: script'];

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: a stream path spelled with escapes, embedded by another site, is refused as /event is`]: () =>
    withServer({}, async (port) => {
      for (const path of ['/%65vent', '/global/%65vent', '/%65vent?session=x']) {
        const answer = await rawRequest(port, get(path, ['Host: 127.0.0.1', ...EMBEDDED]));
        assert.equal(answer.status, 403, `${path}: ${answer.head}`);
        assert.equal(errorOf(answer.body).code, 'forbidden');
      }
    }),

  [`${runtime}: a header given twice is read joined and refused: Origin, Sec-Fetch-Site, Host (either order)`]: () =>
    withServer({}, async (port) => {
      const own = `http://127.0.0.1:${port}`;
      for (const [what, headers] of [
        ['Origin: another, then ours', [`Host: 127.0.0.1:${port}`, 'Origin: http://evil.test', `Origin: ${own}`]],
        ['Origin: ours, then another', [`Host: 127.0.0.1:${port}`, `Origin: ${own}`, 'Origin: http://evil.test']],
        ['Sec-Fetch-Site: same-origin, then cross-site', [`Host: 127.0.0.1:${port}`, 'Sec-Fetch-Site: same-origin', 'Sec-Fetch-Site: cross-site', 'Sec-Fetch-Dest: script']],
      ] as const) {
        const answer = await rawRequest(port, get('/session', [...headers]));
        assert.equal(answer.status, 403, `${what}: ${answer.head}`);
      }
      for (const hosts of [['Host: evil.test', `Host: 127.0.0.1:${port}`], [`Host: 127.0.0.1:${port}`, 'Host: evil.test']]) {
        const answer = await rawRequest(port, get('/session', hosts));
        // Node and Bun join them (the guards' 400, in JSON); Deno's parser refuses a second Host itself (a bare 400).
        assert.equal(answer.status, 400, `${hosts.join(' / ')}: ${answer.head}`);
        if (runtime !== 'deno') assert.equal(errorOf(answer.body).code, 'bad_request');
      }
    }),
};
