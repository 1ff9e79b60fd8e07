// Hostile review red3 on each runtime, through its own serve adapter and raw
// sockets (one scenario per class of hole; the vitest side is
// test/server/red3.test.ts).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { z } from 'zod';
import * as wasmhooks from '../../dist/index.js';
import { createServer, runtimeName } from '../../dist/server.js';
import { get, rawRequest, trickle } from './raw-http.ts';
import { makeHost, withServer, type Server } from './red6-helpers.ts';

const runtime = runtimeName();
/** How long a trickled request is fed before giving up (Deno keeps reading: docs/http-api.md). */
const trickleMs = runtime === 'deno' ? 1500 : 4000;

/** A raw POST; `body` is latin1 (one char per byte), so any byte can be sent. */
const post = (path: string, body: string, headers: string[] = ['Host: 127.0.0.1', 'Content-Type: application/json']) =>
  `POST ${path} HTTP/1.1\r\n${headers.map((h) => `${h}\r\n`).join('')}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;

/** A chunked POST without Content-Length. */
const chunked = (path: string, chunks: string[]) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
  chunks.map((c) => `${c.length.toString(16)}\r\n${c}\r\n`).join('') +
  '0\r\n\r\n';

const errorOf = (body: string) => (JSON.parse(body) as { error: { code: string; message: string } }).error;

/** A host whose Ask tool asks the user through `ask.elicit` (a name is required). */
function askingHost(ask: { elicit?: Server['elicit'] }) {
  const model = wasmhooks.scriptedModel({
    rules: [
      { when: { lastToolName: 'Ask' }, reply: { text: 'Thanks.' } },
      { when: { lastUser: 'ask' }, reply: { toolCalls: [{ name: 'Ask', input: {} }] } },
      { when: () => true, reply: { text: 'Hello.' } },
    ],
  });
  const schema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
  const askTool = wasmhooks.tool('Ask', 'Ask the user', z.object({}), async (_input, ctx) => JSON.stringify(await ask.elicit!(ctx.sessionId, { message: 'Name?', schema })));
  return wasmhooks.createHost({ model, tools: [askTool], allowedTools: ['Ask'] });
}

const header = (head: string, name: string) => new RegExp(`^${name}: *(.*)$`, 'im').exec(head)?.[1]?.trim();

export const scenarios: Record<string, () => Promise<void>> = {
  [`${runtime}: another site cannot frame the console or embed the API (fetch metadata, framing headers)`]: () =>
    withServer({}, async (port) => {
      const framed = await rawRequest(port, get('/', ['Host: 127.0.0.1', 'Sec-Fetch-Site: cross-site', 'Sec-Fetch-Mode: navigate', 'Sec-Fetch-Dest: iframe']));
      assert.equal(framed.status, 403, framed.head);
      assert.match(framed.body, /embedded by another site/);
      const script = await rawRequest(port, get('/session', ['Host: 127.0.0.1', 'Sec-Fetch-Site: same-site', 'Sec-Fetch-Mode: no-cors', 'Sec-Fetch-Dest: script']));
      assert.equal(script.status, 403);
      const page = await rawRequest(port, get('/', ['Host: 127.0.0.1', 'Sec-Fetch-Site: cross-site', 'Sec-Fetch-Mode: navigate', 'Sec-Fetch-Dest: document']));
      assert.equal(page.status, 200);
      assert.equal(header(page.head, 'x-frame-options'), 'DENY');
      // Session 42: a page that opened the console keeps no window handle on it (it could navigate it to a look-alike).
      assert.equal(header(page.head, 'cross-origin-opener-policy'), 'same-origin', page.head);
      assert.match(header(page.head, 'content-security-policy') ?? '', /script-src 'sha256-[A-Za-z0-9+/]+=*'.*frame-ancestors 'none'/);
      for (const res of [framed, await rawRequest(port, get('/session')), await rawRequest(port, get('/nope'))]) {
        assert.equal(header(res.head, 'x-frame-options'), 'DENY', res.head);
        assert.equal(header(res.head, 'x-content-type-options'), 'nosniff', res.head);
      }
    }),

  [`${runtime}: bodies are read one way only: duplicate keys, bytes that are not UTF-8, other charsets, chunked past the limit`]: () =>
    withServer({ bodyLimit: 4096 }, async (port) => {
      const twice = await rawRequest(port, post('/session', '{"title":"a","title":"b"}'));
      assert.equal(twice.status, 400, twice.body);
      assert.match(errorOf(twice.body).message, /names the key "title" twice/);
      const notUtf8 = await rawRequest(port, post('/session', '{"title":"\xff\xc3"}'));
      assert.equal(notUtf8.status, 400, notUtf8.body);
      assert.match(errorOf(notUtf8.body).message, /not valid UTF-8/);
      const utf16 = await rawRequest(port, post('/session', '{}', ['Host: 127.0.0.1', 'Content-Type: application/json; charset=utf-16']));
      assert.equal(utf16.status, 415);
      // "é" as UTF-8 bytes is fine.
      const ok = await rawRequest(port, post('/session', '{"title":"\xc3\xa9"}'));
      assert.equal(ok.status, 201, ok.body);
      const over = await rawRequest(port, chunked('/session', Array.from({ length: 8 }, () => ' '.repeat(1000)).concat(['{}'])));
      assert.equal(over.status, 413, over.head);
      assert.equal(errorOf(over.body).code, 'payload_too_large');
      const under = await rawRequest(port, chunked('/session', ['{"ti', 'tle":"\xc3', '\xa9"}']));
      assert.equal(under.status, 201, under.body);
      // The answer was read as latin1: its UTF-8 bytes decode to "é" (split across chunks on the way in).
      assert.equal(Buffer.from((JSON.parse(under.body) as { title: string }).title, 'latin1').toString('utf8'), 'é');
    }),

  [`${runtime}: the data directory is private (0700, files 0600) and a damaged record is refused, not truncated`]: async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'wasmhooks-red3-')), 'data');
    const opened = await wasmhooks.openStore({ kind: 'file', dataDir: dir });
    const server = createServer(makeHost(), { port: 0, store: opened.store });
    const { port } = await server.listen();
    let id: string;
    try {
      id = (JSON.parse((await rawRequest(port, post('/session', '{}'))).body) as { id: string }).id;
      assert.equal((await rawRequest(port, post(`/session/${id}/prompt`, '{"prompt":"my secret"}'))).status, 202);
      const sessions = join(dir, 'sessions');
      const transcript = join(sessions, `${id}.jsonl`);
      const deadline = Date.now() + 5000;
      const written = () => existsSync(transcript) && readFileSync(transcript, 'utf8').includes('my secret');
      while (!written() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      assert.ok(written(), 'the transcript was written');
      const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
      assert.equal(mode(sessions), '700');
      assert.equal(mode(transcript), '600');
      assert.equal(mode(join(sessions, `${id}.json`)), '600');
    } finally {
      await server.close();
      await opened.close();
    }
    const record = join(dir, 'sessions', `${id}.json`);
    writeFileSync(record, '{"id":"');
    await assert.rejects(wasmhooks.openStore({ kind: 'file', dataDir: dir }), /is not a session record.*move it aside/);
    assert.equal(readFileSync(record, 'utf8'), '{"id":"');
  },

  [`${runtime}: an answer refused by the replica that asked is a 400 on the other replica too, not "not-pending"`]: async () => {
    const opened = await wasmhooks.openStore({ kind: 'memory' });
    const ask: { elicit?: Server['elicit'] } = {};
    const a = createServer(askingHost(ask), { port: 0, store: opened.store, replica: 'a' });
    const b = createServer(askingHost({}), { port: 0, store: opened.store, replica: 'b' });
    ask.elicit = a.elicit;
    const [pa, pb] = [(await a.listen()).port, (await b.listen()).port];
    try {
      await Promise.all([a.ready, b.ready]);
      const id = (JSON.parse((await rawRequest(pa, post('/session', '{}'))).body) as { id: string }).id;
      assert.equal((await rawRequest(pa, post(`/session/${id}/prompt`, '{"prompt":"ask"}'))).status, 202);
      const deadline = Date.now() + 5000;
      while ((await opened.store.controls(id)).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      const requestID = (await opened.store.controls(id))[0]!.id;
      const answer = (content: unknown) => JSON.stringify({ requestID, subtype: 'elicitation', response: { action: 'accept', content } });
      const refused = await rawRequest(pb, post(`/session/${id}/control-response`, answer({})));
      assert.equal(refused.status, 400, refused.body);
      assert.equal(errorOf(refused.body).code, 'validation');
      assert.equal(a.broker.pending(id).length, 1);
      const accepted = await rawRequest(pb, post(`/session/${id}/control-response`, answer({ name: 'Ada' })));
      assert.deepEqual(JSON.parse(accepted.body), { resolved: true });
    } finally {
      await a.close();
      await b.close();
      await opened.close();
    }
  },

  [`${runtime}: a body trickled byte by byte (slowloris) is answered 408 in bodyTimeoutMs; refused ones close the connection`]: () =>
    withServer({ bodyTimeoutMs: 500, token: 'a-token-of-enough-length' }, async (port) => {
      const auth = 'Authorization: Bearer a-token-of-enough-length\r\n';
      const slow = await trickle(port, `POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`, ' ', trickleMs, runtime === 'deno');
      const slowChunked = await trickle(
        port,
        `POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n`,
        '1\r\n \r\n',
        trickleMs,
        runtime === 'deno',
      );
      const stranger = await trickle(port, 'POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{', ' ', trickleMs, runtime === 'deno');
      for (const [what, answer, status] of [['slow', slow, 408], ['slow chunked', slowChunked, 408], ['no token', stranger, 401]] as const) {
        assert.match(answer.status, new RegExp(`^HTTP/1\\.1 ${status}`), `${what}: ${JSON.stringify(answer)}`);
        // Deno gives the handler no way to close a connection: it keeps reading a body nobody wants (docs/http-api.md);
        // there only the status is read (trickle's statusOnly).
        if (runtime !== 'deno') assert.ok(answer.closed && answer.afterMs < 3000, `${what}: ${JSON.stringify(answer)}`);
      }
    }),

  [`${runtime}: an unreachable Redis is named without its credentials (user info with "@", ?password=)`]: async () => {
    for (const url of ['redis://default:p@ss@hunter2@127.0.0.1:1/0', 'redis://127.0.0.1:1/?password=hunter2']) {
      const error = await wasmhooks.openStore({ kind: 'redis', url }).then(
        () => assert.fail('connected to port 1'),
        (e: Error & { code?: string }) => e,
      );
      assert.equal(error.code, 'STORE_UNAVAILABLE', error.message);
      assert.doesNotMatch(error.message, /hunter2|ss@/, error.message);
      assert.match(error.message, /redis:\/\/(\*\*\*@)?127\.0\.0\.1:1/);
    }
  },

  [`${runtime}: a second process on the same data directory is refused (sessions, records and leases would diverge)`]: async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'wasmhooks-red3-')), 'data');
    const held = await wasmhooks.openStore({ kind: 'file', dataDir });
    try {
      const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
      const argv = ['serve', '--data-dir', dataDir, '--port', '0'];
      const [bin, ...args] =
        'Deno' in globalThis ? [process.execPath, 'run', '-A', cli, ...argv] : 'Bun' in globalThis ? [process.execPath, cli, ...argv] : [process.execPath, cli, ...argv];
      const child = spawn(bin as string, args, { cwd: dataDir.replace(/\/data$/, ''), env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout!.on('data', (d: Uint8Array) => (out += new TextDecoder().decode(d)));
      child.stderr!.on('data', (d: Uint8Array) => (out += new TextDecoder().decode(d)));
      const code = await new Promise<number | null>((resolve) => {
        // The old code served on: it is stopped after 20 s and the scenario fails.
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        child.on('close', (c) => {
          clearTimeout(timer);
          resolve(c);
        });
      });
      assert.notEqual(code, 0, out);
      assert.match(out, new RegExp(`in use by process ${process.pid}: one process serves a data directory`), out);
      assert.doesNotMatch(out, /serving on/);
    } finally {
      await held.close();
    }
    // Released on close: the next process opens it, and removes what a replacement cut short by a crash left.
    const leftover = join(dataDir, 'sessions', 's1.json.0f8c5a0e-6a1b-4f5e-9a43-1c2d3e4f5a6b.tmp');
    writeFileSync(leftover, '{"id":"s1","crea');
    const next = await wasmhooks.openStore({ kind: 'file', dataDir });
    assert.equal(existsSync(leftover), false);
    await next.close();
  },

  [`${runtime}: corsOrigins ["*"] or ["null"] without a token is refused at start-up`]: async () => {
    for (const open of ['*', 'null']) {
      assert.throws(() => createServer(makeHost(), { port: 0, corsOrigins: [open] }), (e: Error & { code?: string }) => e.code === 'INVALID_OPTIONS' && /without a token/.test(e.message));
    }
    await withServer({ corsOrigins: ['*'], token: 'a-token-of-enough-length' }, async (port) => {
      const res = await rawRequest(port, get('/session', ['Host: 127.0.0.1', 'Origin: https://any.example', 'Authorization: Bearer a-token-of-enough-length']));
      assert.equal(res.status, 200);
      assert.equal(header(res.head, 'access-control-allow-origin'), '*');
    });
  },

  [`${runtime}: CONNECT (a proxy's method) is answered with a JSON 4xx, not a dropped socket`]: () =>
    withServer({}, async (port) => {
      const res = await rawRequest(port, 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n');
      // Node answers from its 'connect' event (405); Deno and Bun hand it to the app (404, no such route).
      assert.ok(res.status >= 400 && res.status < 500, res.head);
      assert.ok(errorOf(res.body).message.length > 0);
    }),
};
