// sql.js (SQLite compiled with Emscripten, from npm) under the wasmhooks
// sandbox: its wasm is instrumented, its Emscripten imports are its own, and
// every query runs with a deadline and a fuel budget. A runaway query stops
// with TIMEOUT; the stopped instance is spent, so a new one is made.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import initSqlJs from 'sql.js';
import { createRawSandbox, type RawOutcome, type RawSandbox } from '../../dist/index.js';

const require = createRequire(import.meta.url);
const wasmPath = require.resolve('sql.js/dist/sql-wasm.wasm');

export interface SandboxedSql {
  sandbox: RawSandbox;
  /** Runs one statement list under the sandbox's limits (or `timeoutMs`). */
  exec(sql: string, timeoutMs?: number): Promise<RawOutcome<Array<{ columns: string[]; values: unknown[][] }>>>;
}

/** sql.js with its wasm under a deadline, a fuel budget and a memory cap. */
export async function openSandboxedSql(limits: { timeoutMs: number; maxMemoryPages?: number }): Promise<SandboxedSql> {
  const sandbox = await createRawSandbox(new Uint8Array(await readFile(wasmPath)), {
    name: 'sql.js',
    // SQLite starts at 338 pages (21 MiB); give it room to grow to 64 MiB.
    limits: { timeoutMs: limits.timeoutMs, fuel: 1e12, maxMemoryPages: limits.maxMemoryPages ?? 1024 },
  });
  // Emscripten's start-up (constructors, the first allocations) runs inside a run() too.
  const started = await sandbox.run(
    () =>
      initSqlJs({
        instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) {
          void sandbox.instantiate(imports).then(done);
          return {};
        },
      }),
    { limits: { timeoutMs: 5_000 } },
  );
  if (!started.ok) throw new Error(`sql.js did not start: ${started.failure.code}: ${started.failure.message}`);
  const db = await sandbox.run(() => new started.value.Database(), { limits: { timeoutMs: 5_000 } });
  if (!db.ok) throw new Error(`sql.js could not open a database: ${db.failure.message}`);
  return {
    sandbox,
    exec: (sql, timeoutMs) => sandbox.run(() => db.value.exec(sql), timeoutMs ? { limits: { timeoutMs } } : {}),
  };
}

// Run directly: a query within its deadline, then a runaway recursive CTE.
if (import.meta.url === `file://${process.argv[1]}`) {
  const sql = await openSandboxedSql({ timeoutMs: 100 });
  // The first query also pays for compiling SQLite's code on first use: a roomier deadline.
  const ok = await sql.exec('CREATE TABLE t(x); INSERT INTO t VALUES (1),(2),(3); SELECT sum(x) AS total FROM t;', 2_000);
  console.log('query:', ok.ok ? JSON.stringify(ok.value) : ok.failure, ok.ok ? `${ok.durationMs.toFixed(1)} ms, ${ok.fuelUsed} fuel` : '');
  const runaway = await sql.exec('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c;');
  console.log('runaway:', runaway.ok ? 'finished?!' : `${runaway.failure.code} after ${runaway.durationMs.toFixed(0)} ms`);
}
