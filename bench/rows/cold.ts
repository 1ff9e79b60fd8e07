/**
 * Row group `cold`: the cold start of issue 14, in fresh processes of the
 * runtime running the bench (`npm run bench:all` gives Node, Deno and Bun):
 * `import('wasmhooks')` of the built dist/, `loadPlugin({ name: 'guard-shell' })`,
 * the first decision (bench/rows/cold-child.mjs). Beside it, raw Extism in a
 * fresh process: import, compile the same wasm, createPlugin, one call with
 * the same request bytes; and the third-party packages the main entry imports,
 * timed alone, so the note can say how much of the import is theirs; and the
 * same path in a process that imported zod before it (`zod-first`: what
 * wasmhooks adds to an application that already uses zod, and so how much of
 * the cold start is zod's import).
 * Runs alternate (ours, anchor, deps, empty, zod-first); medians with the range. Needs `npx tsup` first.
 *
 * What is measured: the target's figure (import + load + first decision) runs
 * from the moment the child's module starts, so it leaves out the runtime's
 * own start-up. That start-up is measured apart (`empty`: a child that does
 * nothing; `boot`: what each child spent before its module ran) and shown in
 * a third row, a whole fresh process against an empty one.
 */
import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { promisify } from 'node:util';
import { encodeHookInput } from '../../host/protocol/hook-request.js';
import { runtimeName } from '../harness.js';
import { makeRow, type Row, type RowsFn } from './row.js';

interface Cold {
  import: number;
  load: number;
  first: number;
  total: number;
  cpu: number;
  importCpu: number;
  loadCpu: number;
  /** Before the child's module ran: wall since the process's time origin, CPU of the whole process. */
  bootWall: number;
  bootCpu: number;
  ok: boolean;
  deps?: Record<string, number>;
}

const child = new URL('./cold-child.mjs', import.meta.url).pathname;

/** This runtime's command line for the child. */
function command(args: string[]): [string, string[]] {
  if ('Deno' in globalThis) return [process.execPath, ['run', '-A', '--quiet', child, ...args]];
  if ('Bun' in globalThis) return [process.execPath, [child, ...args]];
  return [process.execPath, ['--no-warnings', child, ...args]];
}

async function once(args: string[]): Promise<Cold | string> {
  const [bin, rest] = command(args);
  try {
    const { stdout } = await promisify(execFile)(bin, rest, { timeout: 60_000 });
    const r = JSON.parse(stdout.trim().split('\n').at(-1) as string) as Cold;
    return r.ok ? r : 'no decision';
  } catch (error) {
    // A run that fails (on a loaded machine the first instance can pass the default 100 ms deadline) is counted, not fatal.
    return String((error as { stderr?: string }).stderr || error).split('\n').find((l) => /Error|error/.test(l))?.trim() ?? 'failed';
  }
}

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const span = (xs: number[]) => (xs.length ? `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}` : 'n/a');
const f1 = (x: number) => x.toFixed(1);

export const run: RowsFn = async ({ quick }) => {
  const runtime = runtimeName();
  const what = 'cold start: import(wasmhooks) + loadPlugin guard-shell + first decision (fresh process)';
  if (!(await access(new URL('../../dist/index.js', import.meta.url)).then(() => true, () => false))) {
    return [makeRow('cold', runtime, { what, ours: { value: Number.NaN, unit: 'ms' }, note: 'dist/ is not built (run `npx tsup`)' })];
  }
  const request = [...encodeHookInput({ session_id: 's', cwd: '/tmp', turn: 1, iteration: 1, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls -la' }, tool_use_id: 't' }, 0)]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
  const ours: Cold[] = [];
  const raw: Cold[] = [];
  const deps: Cold[] = [];
  const empty: Cold[] = [];
  const zodFirst: Cold[] = [];
  const failed: string[] = [];
  for (let i = 0; i < (quick ? 3 : 9); i++) {
    for (const [args, into] of [[[], ours], [['extism', request], raw], [['deps'], deps], [['empty'], empty], [['zod-first'], zodFirst]] as const) {
      const r = await once([...args]);
      if (typeof r === 'string') failed.push(`${args[0] ?? 'wasmhooks'}: ${r}`);
      else into.push(r);
    }
  }
  const of = (rs: Cold[], f: (r: Cold) => number) => rs.map(f);
  const zod = of(deps, (r) => r.deps?.zod ?? Number.NaN);
  const depsTotal = of(deps, (r) => Object.values(r.deps ?? {}).reduce((a, b) => a + b, 0));
  const phases =
    `import ${f1(med(of(ours, (r) => r.import)))} ms (its third-party packages alone ${f1(med(depsTotal))}, of which zod ${f1(med(zod))}), ` +
    `load ${f1(med(of(ours, (r) => r.load - r.import)))} ms, first decision ${f1(med(of(ours, (r) => r.first - r.load)))} ms`;
  const cpuPhases =
    `import ${f1(med(of(ours, (r) => r.importCpu)))} ms, load ${f1(med(of(ours, (r) => r.loadCpu - r.importCpu)))} ms, ` +
    `first decision ${f1(med(of(ours, (r) => r.cpu - r.loadCpu)))} ms`;
  const failures = failed.length ? `; ${failed.length} failed run(s): ${[...new Set(failed)].join('; ')}` : '';
  const rows: Row[] = [
    makeRow('cold', runtime, {
      what,
      ours: { value: med(of(ours, (r) => r.total)), unit: 'ms' },
      anchorName: 'raw Extism: import + compile + createPlugin + one call',
      anchor: { value: med(of(raw, (r) => r.total)), unit: 'ms' },
      target: { op: 'atMost', value: 100, unit: 'ms' },
      note: `wall, median of ${ours.length} (range ${span(of(ours, (r) => r.total))}; anchor ${span(of(raw, (r) => r.total))}): ${phases}${failures}`,
    }),
    makeRow('cold', runtime, {
      what: 'cold start, CPU time of the process (same runs)',
      ours: { value: med(of(ours, (r) => r.cpu)), unit: 'ms', clock: 'cpu' },
      anchorName: 'raw Extism, same runs',
      anchor: { value: med(of(raw, (r) => r.cpu)), unit: 'ms', clock: 'cpu' },
      note: `range ${span(of(ours, (r) => r.cpu))} (anchor ${span(of(raw, (r) => r.cpu))}): ${cpuPhases}; the main entry's third-party packages alone: ${f1(med(of(deps, (r) => r.cpu)))} ms CPU`,
    }),
    makeRow('cold', runtime, {
      what: 'a whole fresh process, the runtime\'s own start-up included (same runs), CPU',
      ours: { value: med(of(ours, (r) => r.bootCpu + r.cpu)), unit: 'ms', clock: 'cpu' },
      anchorName: 'an empty process of the same runtime (start-up only)',
      anchor: { value: med(of(empty, (r) => r.bootCpu + r.cpu)), unit: 'ms', clock: 'cpu' },
      note:
        `range ${span(of(ours, (r) => r.bootCpu + r.cpu))} (empty ${span(of(empty, (r) => r.bootCpu + r.cpu))}); ` +
        `wall: ours ${f1(med(of(ours, (r) => r.bootWall + r.total)))} ms, empty ${f1(med(of(empty, (r) => r.bootWall)))} ms (from the process's time origin)`,
    }),
    makeRow('cold', runtime, {
      what: 'the same cold start in a process that imported zod before (what wasmhooks adds to an app that uses zod), CPU',
      ours: { value: med(of(zodFirst, (r) => r.cpu)), unit: 'ms', clock: 'cpu' },
      anchorName: 'raw Extism, same runs',
      anchor: { value: med(of(raw, (r) => r.cpu)), unit: 'ms', clock: 'cpu' },
      note:
        `range ${span(of(zodFirst, (r) => r.cpu))}: import ${f1(med(of(zodFirst, (r) => r.importCpu)))} ms, load ${f1(med(of(zodFirst, (r) => r.loadCpu - r.importCpu)))} ms, ` +
        `first decision ${f1(med(of(zodFirst, (r) => r.cpu - r.loadCpu)))} ms; the fresh process's CPU less this: ${f1(med(of(ours, (r) => r.cpu)) - med(of(zodFirst, (r) => r.cpu)))} ms (zod's import there)`,
    }),
  ];
  return rows;
};
