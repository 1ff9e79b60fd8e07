// Hostile review red6 on each runtime, through its own serve adapter and raw
// sockets: one scenario per class of hole in what is reachable over HTTP
// (the limits on resources are in server-red6-limits.xrt.ts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import * as wasmhooks from '../../dist/index.js';
import { mcpHttpApp } from '../../dist/mcp.js';
import { createServer, runtimeName } from '../../dist/server.js';
import { get, rawRequest } from './raw-http.ts';
import { errorOf, header, makeHost, post, withServer, type Server } from './red6-helpers.ts';

const runtime = runtimeName();

const MCP_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
const MCP_ACCEPT = 'Accept: application/json, text/event-stream';

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: the MCP endpoint has the control plane's guards: fetch metadata, JSON-only POSTs, security headers`]: async () => {
    const served = await mcpHttpApp(makeHost(), { port: 0 }).listen();
    const { port } = served;
    try {
      // Baseline: a plain client lists the tools, and the answer carries the security headers.
      const ok = await rawRequest(port, post('/mcp', MCP_LIST, ['Host: 127.0.0.1', 'Content-Type: application/json', MCP_ACCEPT]));
      assert.equal(ok.status, 200, ok.head + ok.body);
      assert.match(ok.body, /"tools"/);
      for (const [name, value] of [['x-frame-options', 'DENY'], ['x-content-type-options', 'nosniff'], ['cross-origin-resource-policy', 'same-origin']]) {
        assert.equal(header(ok.head, name as string), value, `${name} on ${ok.head}`);
      }
      // A "simple" cross-site POST (a form or no-cors fetch: text/plain, whose parameters may say anything) is refused by our check.
      const simple = await rawRequest(port, post('/mcp', MCP_LIST, ['Host: 127.0.0.1', 'Content-Type: text/plain; x=application/json', MCP_ACCEPT]));
      assert.equal(simple.status, 415, simple.head + simple.body);
      assert.equal(errorOf(simple.body).code, 'unsupported_media_type');
      // A request another site embeds, without Origin (fetch metadata), is refused: GET and POST.
      const embedded = ['Host: 127.0.0.1', 'Sec-Fetch-Site: cross-site', 'Sec-Fetch-Mode: no-cors', 'Sec-Fetch-Dest: empty'];
      const viaPost = await rawRequest(port, post('/mcp', MCP_LIST, [...embedded, 'Content-Type: application/json', MCP_ACCEPT]));
      assert.equal(viaPost.status, 403, viaPost.head + viaPost.body);
      assert.match(errorOf(viaPost.body).message, /embedded by another site/);
      const viaGet = await rawRequest(port, get('/mcp', [...embedded.slice(0, 2), 'Sec-Fetch-Dest: iframe', 'Accept: text/event-stream']));
      assert.equal(viaGet.status, 403, viaGet.head);
      assert.equal(header(viaGet.head, 'x-frame-options'), 'DENY');
      // Bodies are read the one way (the SDK's JSON.parse took any depth, then overflowed the stack: -32603 on Node and Bun).
      const nested = '['.repeat(200_000) + ']'.repeat(200_000);
      const deepCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calc","arguments":{"x":${nested}}}}`;
      for (const [what, body, type] of [
        ['deep', deepCall, 'application/json'],
        ['twice', '{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call","params":{}}', 'application/json'],
        ['not UTF-8', '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"\xff"}}', 'application/json'],
        ['UTF-16', MCP_LIST, 'application/json; charset=utf-16'],
      ] as const) {
        const res = await rawRequest(port, post('/mcp', body, ['Host: 127.0.0.1', `Content-Type: ${type}`, MCP_ACCEPT]), 5000);
        assert.equal(res.status, what === 'UTF-16' ? 415 : 400, `${what}: ${res.head}${res.body.slice(0, 200)}`);
        if (what !== 'UTF-16') assert.equal((JSON.parse(res.body) as { error: { code: number } }).error.code, -32700, res.body);
      }
      // Still refused as before: a foreign Host (DNS rebinding) and a foreign Origin.
      assert.equal((await rawRequest(port, post('/mcp', MCP_LIST, ['Host: attacker.example', 'Content-Type: application/json', MCP_ACCEPT]))).status, 403);
      assert.equal((await rawRequest(port, post('/mcp', MCP_LIST, ['Host: 127.0.0.1', 'Origin: https://attacker.example', 'Content-Type: application/json', MCP_ACCEPT]))).status, 403);
    } finally {
      await served.close();
    }
  },

  [`${runtime}: plugin loading reaches no inward address: POST /plugins refuses loopback/private hosts in every spelling, file: URLs and devices; no redirects`]: async () => {
    const pin = '0'.repeat(64);
    // A local server that redirects: a public URL could send the download inward the same way.
    const redirector = http.createServer((_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end());
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const redirectPort = (redirector.address() as net.AddressInfo).port;
    try {
      const redirected = await wasmhooks.loadPlugin({ url: `http://127.0.0.1:${redirectPort}/x.wasm`, sha256: pin, redirect: 'error' }).then(
        () => assert.fail('loaded'),
        (e: Error & { code?: string }) => e,
      );
      assert.equal(redirected.code, 'LOAD_FAILED', redirected.message);
      assert.match(redirected.message, /redirects are not followed/);
      for (const source of [{ url: 'file:///etc/hostname', sha256: pin }, { path: '/dev/zero' }]) {
        const started = Date.now();
        const error = await wasmhooks.loadPlugin(source).then(
          () => assert.fail('loaded'),
          (e: Error & { code?: string }) => e,
        );
        assert.match(`${error.code} ${error.message}`, 'url' in source ? /^INVALID_OPTIONS .*http: or https:/ : /^LOAD_FAILED .*not a regular file/);
        assert.ok(Date.now() - started < 2000);
      }
      // A host that loads at run time as `wasmhooks serve` does (the source as the route hands it over, redirect included).
      const inner = makeHost();
      const loading = {
        session: (options: Parameters<typeof inner.session>[0]) => inner.session(options),
        loadPlugin: async (source: Parameters<typeof wasmhooks.loadPlugin>[0]) => wasmhooks.loadPlugin(source),
      };
      const server = createServer(loading as unknown as Parameters<typeof createServer>[0], { port: 0, allowPluginLoading: true });
      const { port } = await server.listen();
      try {
        const load = (body: unknown) => rawRequest(port, post('/plugins', JSON.stringify(body)), 5000);
        for (const url of [
          `http://127.0.0.1:${redirectPort}/x.wasm`,
          `http://2130706433:${redirectPort}/x.wasm`,
          `http://[::ffff:7f00:1]:${redirectPort}/x.wasm`,
          'http://169.254.169.254/latest/meta-data',
          `http://localhost:${redirectPort}/x.wasm`,
          'http://10.0.0.1/x.wasm',
          // IPv6 outside global unicast: site-local, SIIT, local-use NAT64 (each as this runtime's URL parser spells it).
          'http://[fec0::1]/x.wasm',
          'http://[::ffff:0:a00:1]/x.wasm',
          'http://[64:ff9b:1::a00:1]/x.wasm',
        ]) {
          const refused = await load({ url, sha256: pin });
          assert.equal(refused.status, 403, `${url}: ${refused.body}`);
          assert.match(errorOf(refused.body).message, /not a public address/);
        }
        const file = await load({ url: 'file:///etc/hostname', sha256: pin });
        assert.equal(file.status, 400, file.body);
        const device = await load({ path: '/dev/zero' });
        assert.ok(device.status >= 400, device.body);
        assert.match(errorOf(device.body).message, /not a regular file/);
      } finally {
        await server.close();
      }
    } finally {
      redirector.close();
    }
  },

  [`${runtime}: one reading of a body: a Content-Type naming its charset twice is 415, a "__proto__" key (in any spelling, at any depth) is 400`]: () =>
    withServer({}, async (port) => {
      for (const type of ['application/json;charset=utf-8;charset=utf-16', 'application/json; charset=utf-8; CHARSET="latin1"', 'application/json;charset=utf-8;charset=utf-8']) {
        const res = await rawRequest(port, post('/session', '{}', ['Host: 127.0.0.1', `Content-Type: ${type}`]));
        assert.equal(res.status, 415, `${type}: ${res.head}`);
        assert.match(errorOf(res.body).message, /more than once/);
      }
      assert.equal((await rawRequest(port, post('/session', '{}', ['Host: 127.0.0.1', 'Content-Type: application/json; charset=UTF-8']))).status, 201);
      // JSON.parse keeps "__proto__" as data; the first Object.assign copy makes it a prototype, zod's records drop it.
      const id = (JSON.parse((await rawRequest(port, post('/session', '{}'))).body) as { id: string }).id;
      for (const [path, body] of [
        ['/session', '{"__proto__":{"title":"x"}}'],
        ['/session', '{"\\u005f_proto__":{}}'],
        [`/session/${id}/control-response`, '{"requestID":"r","subtype":"can_use_tool","response":{"behavior":"allow","updatedInput":{"a":[{"__proto__":{"command":"rm -rf /"}}]}}}'],
      ]) {
        const res = await rawRequest(port, post(path as string, body as string));
        assert.equal(res.status, 400, `${body}: ${res.body}`);
        assert.match(errorOf(res.body).message, /__proto__/);
      }
      // Other keys named like Object's own members are plain data.
      assert.equal((await rawRequest(port, post(`/session/${id}/control-cancel`, '{"requestID":"constructor"}'))).status, 200);
    }),

  [`${runtime}: a control answer counts once, for its own session only (another session's id, a replayed answer, a cancel after it)`]: async () => {
    const model = wasmhooks.scriptedModel({
      rules: [
        { when: { lastToolName: 'Ask' }, reply: { text: 'Thanks.' } },
        { when: { lastUser: 'ask' }, reply: { toolCalls: [{ name: 'Ask', input: {} }] } },
        { when: () => true, reply: { text: 'Hello.' } },
      ],
    });
    const ask: { elicit?: Server['elicit'] } = {};
    const askTool = wasmhooks.tool('Ask', 'Ask the user', z.object({}), async (_input, ctx) => JSON.stringify(await ask.elicit!(ctx.sessionId, { message: 'Name?' })));
    const server = createServer(wasmhooks.createHost({ model, tools: [askTool], allowedTools: ['Ask'] }), { port: 0 });
    ask.elicit = server.elicit;
    const { port } = await server.listen();
    try {
      const create = async () => (JSON.parse((await rawRequest(port, post('/session', '{}'))).body) as { id: string }).id;
      const [mine, other] = [await create(), await create()];
      assert.equal((await rawRequest(port, post(`/session/${mine}/prompt`, '{"prompt":"ask"}'))).status, 202);
      const deadline = Date.now() + 5000;
      while (server.broker.pending(mine).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      const requestID = server.broker.pending(mine)[0]!.id;
      const answer = JSON.stringify({ requestID, subtype: 'elicitation', response: { action: 'accept', content: { name: 'Ada' } } });
      const foreign = await rawRequest(port, post(`/session/${other}/control-response`, answer));
      assert.deepEqual(JSON.parse(foreign.body), { resolved: false, reason: 'session-mismatch' });
      assert.equal(JSON.parse((await rawRequest(port, post(`/session/${other}/control-cancel`, JSON.stringify({ requestID })))).body).cancelled, 0);
      assert.equal(server.broker.pending(mine).length, 1);
      assert.deepEqual(JSON.parse((await rawRequest(port, post(`/session/${mine}/control-response`, answer))).body), { resolved: true });
      assert.deepEqual(JSON.parse((await rawRequest(port, post(`/session/${mine}/control-response`, answer))).body), { resolved: false, reason: 'not-pending' });
      assert.equal(JSON.parse((await rawRequest(port, post(`/session/${mine}/control-cancel`, JSON.stringify({ requestID })))).body).cancelled, 0);
      // Ids that are not ids: refused before any lookup.
      for (const id of ['a%2Fb', '%E2%80%AE', 'x'.repeat(129), '..']) {
        const res = await rawRequest(port, post(`/session/${id}/control-response`, answer));
        assert.ok(res.status === 400 || res.status === 404, `${id}: ${res.head}`);
      }
    } finally {
      await server.close();
    }
  },

  [`${runtime}: a data directory's lock claims left by crashed take-overs are removed when the lock is taken`]: async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'wasmhooks-red6-')), 'data');
    const sessions = join(dataDir, 'sessions');
    mkdirSync(sessions, { recursive: true, mode: 0o700 });
    const dead = spawnSync('true').pid as number;
    const orphan = `.lock.${'a'.repeat(32)}.claim`;
    writeFileSync(join(sessions, orphan), `${JSON.stringify({ pid: dead, host: hostname(), nonce: 'gone' })}\n`, { mode: 0o600 });
    const opened = await wasmhooks.openStore({ kind: 'file', dataDir });
    try {
      assert.ok(!readdirSync(sessions).includes(orphan), readdirSync(sessions).join(' '));
    } finally {
      await opened.close();
    }
  },

};
