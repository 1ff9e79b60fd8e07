// Review rhttp: a POST body declared compressed (Content-Encoding) on each runtime. No runtime decodes a request
// body, so before, plain JSON labelled gzip was served as JSON (a proxy or filter in front that decodes by the
// label saw another body) and real gzip was "not valid UTF-8". Now 415 on the control plane and the MCP endpoint,
// saying to send it uncompressed; identity is still accepted.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import * as wasmhooks from '../../dist/index.js';
import { mcpHttpApp } from '../../dist/mcp.js';
import { runtimeName } from '../../dist/server.js';
import { rawRequest } from './raw-http.ts';
import { errorOf, withServer } from './red6-helpers.ts';

const runtime = runtimeName();
const JSON_BODY = '{"title":"x"}';

/** A raw POST with `coding` as its Content-Encoding (none when undefined) and `body` (latin1 or bytes). */
function post(port: number, path: string, body: string | Uint8Array, coding?: string) {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'latin1') : Buffer.from(body);
  const head =
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
    `${coding === undefined ? '' : `Content-Encoding: ${coding}\r\n`}Content-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`;
  return rawRequest(port, Buffer.concat([Buffer.from(head, 'latin1'), bytes]).toString('latin1'));
}

function refused(answer: { status: number; body: string }, coding: string): void {
  assert.equal(answer.status, 415, `${coding}: ${answer.body.slice(0, 200)}`);
  const error = errorOf(answer.body);
  assert.equal(error.code, 'unsupported_media_type');
  assert.match(error.message, /Content-Encoding ".*" is not accepted \(send the JSON uncompressed, without Content-Encoding\)/);
}

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: a POST body labelled gzip, br or deflate is 415, plain or compressed; identity and none are served`]: () =>
    withServer({}, async (port, server) => {
      for (const coding of ['gzip', 'br', 'deflate', 'GZIP', 'gzip, identity', 'x-gzip']) refused(await post(port, '/session', JSON_BODY, coding), coding);
      refused(await post(port, '/session', gzipSync(JSON_BODY), 'gzip'), 'gzip (compressed)');
      assert.equal((await server.sessions.list({ offset: 0, limit: 10 })).total, 0, 'nothing was created');
      for (const coding of [undefined, 'identity', 'Identity', '']) assert.equal((await post(port, '/session', JSON_BODY, coding)).status, 201, String(coding));
    }),

  [`${runtime}: the MCP endpoint refuses a body labelled gzip the same way`]: async () => {
    const served = await mcpHttpApp(wasmhooks.createHost({ model: wasmhooks.scriptedModel() }), { port: 0 }).listen();
    try {
      const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
      refused(await post(served.port, '/mcp', ping, 'gzip'), 'gzip');
      assert.equal((await post(served.port, '/mcp', ping)).status, 200);
    } finally {
      await served.close();
    }
  },
};
