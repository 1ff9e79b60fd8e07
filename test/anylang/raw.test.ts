// The raw-wasm sandbox: a non-Extism module with the caller's imports.
// sql.js (SQLite by Emscripten, from npm) answers a query within its
// deadline; a runaway recursive CTE is stopped with TIMEOUT.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import wabtInit from 'wabt';
import { createRawSandbox, type RawSandbox } from '../../host/sandbox/raw.js';

const require = createRequire(import.meta.url);

async function sqlite(timeoutMs: number) {
  const sandbox = await createRawSandbox(new Uint8Array(await readFile(require.resolve('sql.js/dist/sql-wasm.wasm'))), {
    name: 'sql.js',
    limits: { timeoutMs, fuel: 1e12, maxMemoryPages: 1024 },
  });
  const SQL = await sandbox.run(
    () => initSqlJs({ instantiateWasm: (imports, done) => (void sandbox.instantiate(imports).then(done), {}) }),
    { limits: { timeoutMs: 5_000 } },
  );
  if (!SQL.ok) throw new Error(SQL.failure.message);
  const db = await sandbox.run(() => new SQL.value.Database(), { limits: { timeoutMs: 5_000 } });
  if (!db.ok) throw new Error(db.failure.message);
  return { sandbox, exec: (sql: string, timeoutMs?: number) => sandbox.run(() => db.value.exec(sql), timeoutMs ? { limits: { timeoutMs } } : {}) };
}

async function wat(source: string): Promise<Uint8Array> {
  const mod = (await wabtInit()).parseWat('t.wat', source);
  try {
    return mod.toBinary({}).buffer;
  } finally {
    mod.destroy();
  }
}

describe('raw sandbox: sql.js', () => {
  // sql.js initialises once per process (it caches its module), so one sandbox serves every step.
  it('answers a query within its deadline, rethrows SQL errors, stops a runaway recursive CTE with TIMEOUT', async () => {
    const sql = await sqlite(200);
    const ok = await sql.exec('CREATE TABLE t(x); INSERT INTO t VALUES (1),(2),(3); SELECT sum(x) AS total FROM t;', 2_000); // also warms up the engine
    expect(ok.ok && ok.value).toEqual([{ columns: ['total'], values: [[6]] }]);
    expect(ok.fuelUsed).toBeGreaterThan(0);
    // The caller's own errors are rethrown, and do not spend the sandbox.
    await expect(sql.exec('SELEKT 1;')).rejects.toThrow(/syntax error/);
    expect((await sql.exec('SELECT 2;')).ok).toBe(true);
    const started = performance.now();
    const runaway = await sql.exec('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c;');
    expect(runaway.ok ? 'ok' : runaway.failure).toMatchObject({ code: 'TIMEOUT', message: 'the call ran past its deadline of 200 ms' });
    expect(performance.now() - started).toBeLessThan(1_000);
    // A stop is final: the spent instance runs nothing more.
    const after = await sql.exec('SELECT 1;');
    expect(after.ok ? 'ok' : after.failure.code).toBe('ABORTED');
  }, 30_000);
});

describe('raw sandbox: limits and misuse', () => {
  const spin = `(module (import "env" "tick" (func $tick)) (func (export "spin") (loop $l (call $tick) (br $l))) (func (export "work") (result i32) (i32.const 7)))`;

  async function spinner(): Promise<{ raw: RawSandbox; instance: WebAssembly.Instance; ticks: () => number }> {
    let ticks = 0;
    const raw = await createRawSandbox(await wat(spin), { limits: { timeoutMs: 50 } });
    const instance = await raw.instantiate({ env: { tick: () => void ticks++ } });
    return { raw, instance, ticks: () => ticks };
  }

  it('stops by deadline, by fuel and by abort', async () => {
    const a = await spinner();
    const timed = await a.raw.run(() => (a.instance.exports.spin as () => void)(), { limits: { fuel: 1e15 } });
    expect(timed.ok ? 'ok' : timed.failure.code).toBe('TIMEOUT');
    const b = await spinner();
    const burnt = await b.raw.run(() => (b.instance.exports.spin as () => void)(), { limits: { timeoutMs: 5_000, fuel: 100_000 } });
    expect(burnt.ok ? 'ok' : burnt.failure.code).toBe('FUEL_EXHAUSTED');
    const c = await spinner();
    const controller = new AbortController();
    let n = 0;
    const instance = await c.raw.instantiate({ env: { tick: () => (++n > 1000 ? controller.abort() : undefined) } });
    const aborted = await c.raw.run(() => (instance.exports.spin as () => void)(), { signal: controller.signal, limits: { timeoutMs: 5_000, fuel: 1e15 } });
    expect(aborted.ok ? 'ok' : aborted.failure.code).toBe('ABORTED');
  });

  it('runs nothing outside run(), and refuses its own import namespace', async () => {
    const a = await spinner();
    expect(() => (a.instance.exports.spin as () => void)()).toThrow(/outside of sandbox.run/);
    const b = await spinner();
    expect((await b.raw.run(() => (b.instance.exports.work as () => number)())).ok).toBe(true);
    await expect(b.raw.instantiate({ 'wasmhooks:sandbox': {} })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});
