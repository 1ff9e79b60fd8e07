/**
 * Row group: plugins in other languages. Each figure beside raw Extism (or
 * the library unsandboxed) running the same bytes in the same run:
 * - the C guard on wasi-libc (`hook` writes one line to stderr): our WASI
 *   (charged, deadline-checked, stderr as log lines) vs Extism's own WASI
 *   (`useWasi: true`: node:wasi on Node, its shim elsewhere), uninstrumented;
 * - an Extism AssemblyScript PDK export (`count_vowels`) as a tool call path;
 * - a sql.js query in the raw sandbox vs sql.js as shipped.
 * Needs `npm run build:fixtures` and `npm run build:plugins`.
 */
import createPlugin from '@extism/extism';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type initSqlJs from 'sql.js';
import { createRawSandbox, createSandbox, type HostFunction } from '../../host/index.js';
import { compare, runtimeName, type SampleOptions, type Task } from '../harness.js';
import { fig, makeRow, type Row, type RowsFn } from './row.js';

const require = createRequire(import.meta.url);
const fixture = (path: string) => readFile(new URL(`../../test/fixtures/${path}`, import.meta.url)).then((b) => new Uint8Array(b));

function fail(message: string): never {
  throw new Error(`anylang bench: ${message}`);
}

export const run: RowsFn = async ({ quick }) => {
  const runtime = runtimeName();
  const limits = { timeoutMs: 2_000, fuel: 1e12 };
  const guard = await fixture('wasi/build/guard.wasm');
  const vowels = await fixture('extism-vowels/build/extism-vowels.wasm');
  const request = new TextEncoder().encode('{"command":"ls -la"}');
  const lines: string[] = [];
  const guardOurs = await createSandbox(guard, { wasi: true, limits, host: { onLog: (_l, m) => void lines.push(m) } });
  const guardRaw = await createPlugin({ wasm: [{ data: guard }] }, { useWasi: true, logLevel: 'silent' });
  const lookup: HostFunction = { params: ['i64'], results: ['i64'], fn: (c) => c.store('x') };
  const vowelsOurs = await createSandbox(vowels, { limits, hostFunctions: { lookup } });
  const vowelsRaw = await createPlugin({ wasm: [{ data: vowels }] }, { useWasi: false, functions: { 'extism:host/user': { lookup: (c: { store: (s: string) => bigint }) => c.store('x') } } });
  const text = new TextEncoder().encode('The quick brown fox jumps over the lazy dog');

  const a = await guardOurs.call('hook', request);
  const b = await guardRaw.call('hook', request);
  if (!a.ok || !b || a.output.join() !== b.bytes().join()) fail('the C guard answers differently under our WASI and Extism\'s');
  if (!lines.some((l) => l.startsWith('wasi-guard: allowed'))) fail('no stderr line reached the log');
  const c = await vowelsOurs.call('count_vowels', text);
  const d = await vowelsRaw.call('count_vowels', text);
  if (!c.ok || !d || d.text() !== new TextDecoder().decode(c.output)) fail('count_vowels answers differently');

  // sql.js: the same query, sandboxed and as shipped. sql.js initialises once per
  // module instance, so each side loads its own fresh copy of the glue (Node's require cache).
  const wasmPath = require.resolve('sql.js/dist/sql-wasm.wasm');
  const gluePath = require.resolve('sql.js');
  const freshSqlJs = (): typeof initSqlJs => {
    delete require.cache[gluePath];
    return require(gluePath) as typeof initSqlJs;
  };
  const sandbox = await createRawSandbox(new Uint8Array(await readFile(wasmPath)), { limits: { ...limits, maxMemoryPages: 1024 } });
  const sqlOurs = await sandbox.run(() => freshSqlJs()({ instantiateWasm: (imports, done) => (void sandbox.instantiate(imports).then(done), {}) }), { limits: { timeoutMs: 10_000 } });
  if (!sqlOurs.ok) fail(`sql.js did not start in the sandbox: ${sqlOurs.failure.message}`);
  const dbOurs = (await sandbox.run(() => new sqlOurs.value.Database())) as { ok: true; value: { exec(sql: string): unknown } };
  const QUERY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000) SELECT sum(x) FROM c;';
  const rowsOf = (r: unknown) => JSON.stringify(r);
  const oursQuery = async () => {
    const out = await sandbox.run(() => dbOurs.value.exec(QUERY));
    if (!out.ok) fail(`query stopped: ${out.failure.code}`);
    return out.value;
  };
  let plainQuery: Task | undefined;
  if (require.cache) {
    const SQL = await freshSqlJs()();
    const db = new SQL.Database();
    if (rowsOf(db.exec(QUERY)) !== rowsOf(await oursQuery())) fail('sql.js answers differently sandboxed');
    plainQuery = () => db.exec(QUERY);
  }

  const n = quick ? 300 : 3000;
  const fast: SampleOptions = { samples: n, maxMs: quick ? 1_500 : 6_000 };
  const slow: SampleOptions = { samples: quick ? 30 : 200, warmup: 10, maxMs: quick ? 2_000 : 6_000 };
  const tasks: Record<string, [Task, SampleOptions]> = {
    guardOurs: [() => guardOurs.call('hook', request), fast],
    guardRaw: [() => guardRaw.call('hook', request), fast],
    vowelsOurs: [() => vowelsOurs.call('count_vowels', text), fast],
    vowelsRaw: [() => vowelsRaw.call('count_vowels', text), fast],
    sqlOurs: [oursQuery, slow],
    ...(plainQuery ? { sqlPlain: [plainQuery, slow] as [Task, SampleOptions] } : {}),
  };
  const r = await compare(tasks, { rounds: 6 });
  await Promise.all([guardOurs.close(), guardRaw.close(), vowelsOurs.close(), vowelsRaw.close()]);

  const row = (x: Parameters<typeof makeRow>[2]): Row => makeRow('anylang', runtime, x);
  return [
    row({
      what: 'C guard on wasi-libc, hook (one stderr line): our WASI, metered',
      ours: fig(r.guardOurs!),
      anchorName: "raw Extism, its own WASI",
      anchor: fig(r.guardRaw!),
      target: { op: 'max', value: 2 },
    }),
    row({
      what: 'Extism AS-PDK count_vowels (no protocol), sandbox.call',
      ours: fig(r.vowelsOurs!),
      anchorName: 'raw Extism in-thread',
      anchor: fig(r.vowelsRaw!),
      target: { op: 'max', value: 1.5 },
    }),
    row({
      what: 'sql.js recursive CTE (2000 rows) in the raw sandbox',
      ours: fig(r.sqlOurs!),
      ...(r.sqlPlain ? { anchorName: 'sql.js as shipped', anchor: fig(r.sqlPlain) } : {}),
      ...(r.sqlPlain ? {} : { note: 'no unsandboxed anchor: no require cache to load sql.js twice on this runtime' }),
    }),
  ];
};
