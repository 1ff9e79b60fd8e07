// One sha256 pin rule (host/sandbox/digest.ts SHA256_PIN) for a wasmhooks.json plugin, loadPlugin's
// source and POST /plugins: 64 hex characters in either case (the load compares it lower-cased). The
// HTTP route refused an upper-case pin that the config file and loadPlugin took.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../host/config/load.js';
import { WasmhooksError } from '../../host/errors.js';
import { loadPlugin } from '../../host/plugins/load.js';
import { createServer, type WasmhooksServer } from '../../host/server/app.js';
import { call } from '../server/helpers.js';
import { realHost } from '../server/real-host.js';

const UPPER = 'E3B0C442'.repeat(8);
const SHORT = 'e'.repeat(63);
const RULE = /expected a sha256 digest \(64 hex characters\)/;
const where = { file: join('/proj', 'wasmhooks.json'), dir: '/proj' };
const EMPTY_MODULE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);

const failure = (run: () => unknown): Promise<unknown> =>
  Promise.resolve()
    .then(run)
    .then(
      () => undefined,
      (e: unknown) => e,
    );

describe('a sha256 pin, wherever it is written', () => {
  let server: WasmhooksServer | undefined;
  afterEach(async () => server?.close());

  it('wasmhooks.json: either case, and a refusal says the rule', async () => {
    expect(() => parseConfig({ plugins: [{ path: 'a.wasm', sha256: UPPER }] }, where)).not.toThrow();
    expect(String(await failure(() => parseConfig({ plugins: [{ path: 'a.wasm', sha256: SHORT }] }, where)))).toMatch(RULE);
  });

  it('loadPlugin: an upper-case pin is compared (INTEGRITY), a short one refused with the rule', async () => {
    const mismatch = await failure(() => loadPlugin({ bytes: EMPTY_MODULE, sha256: UPPER }));
    expect((mismatch as WasmhooksError).code).toBe('INTEGRITY');
    const short = await failure(() => loadPlugin({ bytes: EMPTY_MODULE, sha256: SHORT }));
    expect(String(short)).toMatch(RULE);
  });

  it('POST /plugins: an upper-case pin passes validation, a short one is 400 with the rule', async () => {
    server = createServer(realHost(), { allowPluginLoading: true });
    // This host cannot load plugins: 501 comes after the body was validated.
    expect((await call(server, 'POST', '/plugins', { path: '/tmp/x.wasm', sha256: UPPER })).status).toBe(501);
    const short = await call(server, 'POST', '/plugins', { path: '/tmp/x.wasm', sha256: SHORT });
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.json)).toMatch(RULE);
  });
});
