/**
 * The dispatch group's loop rows (guard-shell in the agent loop, its anchors
 * and its split), measured in a process of their own: this file, run as a
 * script by `loopRows` on the same runtime, prints the figures as JSON.
 *
 * Why a process of its own: the loop rows are CPU time of the whole process
 * (all its threads), and in the group's process the other rows' work leaked
 * into them (their worker and compiler threads, and the other shapes in
 * which they call the sandbox and dispatch code the guard runs). Node's
 * ratio read 1.41–1.53 there and 1.30–1.41 with the loop tasks alone in a
 * process, both warmed up as below (bench/README.md, "The loop rows in a
 * process of their own"). The anchor and ours stay side by side in that one
 * process, in interleaved rounds, warmed up alike.
 */
import createPlugin from '@extism/extism';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { loadPlugin } from '../../host/index.js';
import { compare, type Stats } from '../harness.js';
import { bytesPerCall, guardLoop, LOOP_CALLS } from './guard-path.js';

const GUARD = new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url);

export type LoopTask = 'loopBare' | 'loopGuarded' | 'loopRawInTool' | 'rawLoop' | 'loopStubHook' | 'loopRawHook' | 'loopUserHook' | 'callHookLoop';

interface LoopFigures {
  stats: Record<LoopTask, Stats>;
  /** JS heap bytes per tool call (NaN where the runtime has no V8 gc). */
  alloc: Record<'bare' | 'stubHook' | 'rawHook' | 'guarded', number>;
  requestBytes: number;
}

/**
 * Prompts warmed up before any is timed, per task: enough that the optimizing compiler is done
 * with the loop's code and ours. With 5, the compiler threads still ran during the first rounds
 * (their CPU time is the process's), and more for the path with more JS to optimize (ours):
 * Node's ratio read 1.46–1.51 with 5, 1.30–1.41 with 300, in four interleaved pairs.
 */
const WARMUP = 300;

/** Times the loop tasks side by side (CPU time, interleaved rounds), then their allocations. */
async function measureLoop(quick: boolean): Promise<LoopFigures> {
  const bytes = new Uint8Array(await readFile(GUARD));
  const ours = await loadPlugin({ bytes }, { limits: { timeoutMs: 1_000 } });
  const raw = await createPlugin({ wasm: [{ data: bytes }] }, { useWasi: false });
  const loop = await guardLoop(ours, raw);
  const opts = { samples: quick ? 40 : 600, warmup: quick ? 30 : WARMUP, maxMs: quick ? 2_000 : 8_000, clock: 'cpu' as const };
  const stats = await compare<LoopTask>(
    {
      // Prompts of LOOP_CALLS tool calls (CPU time: long samples on a loaded machine), beside
      // LOOP_CALLS raw calls of the bytes the loop sends, timed the same way.
      loopBare: [loop.bare, opts],
      loopGuarded: [loop.guarded, opts],
      loopRawInTool: [loop.rawInTool, opts],
      rawLoop: [async () => { for (let i = 0; i < LOOP_CALLS; i++) await raw.call('hook', loop.guardBytes); }, opts],
      // The guard's cost in the loop split in three (see `loopParts`), and our call path in a tight loop, timed alike.
      loopStubHook: [loop.stubHook, opts],
      loopRawHook: [loop.rawHook, opts],
      loopUserHook: [loop.userHook, opts],
      callHookLoop: [async () => { for (let i = 0; i < LOOP_CALLS; i++) await ours.callHook(loop.guardInput); }, opts],
    },
    { rounds: 10 },
  );
  // Allocations after timing, so the GCs they force do not land in the samples: per tool call, from prompts (20 a try).
  const perToolCall = async (prompt: () => Promise<void>) => (await bytesPerCall(prompt, 20)) / LOOP_CALLS;
  const alloc = {
    bare: await perToolCall(loop.bare),
    stubHook: await perToolCall(loop.stubHook),
    rawHook: await perToolCall(loop.rawHook),
    guarded: await perToolCall(loop.guarded),
  };
  await Promise.all([ours.close(), raw.close()]);
  return { stats, alloc, requestBytes: loop.requestBytes };
}

const SCRIPT = fileURLToPath(import.meta.url);

/** This runtime's command line for this file as a script (Node keeps its flags: tsx's loader, --expose-gc). */
function command(quick: boolean): [string, string[]] {
  const args = [SCRIPT, ...(quick ? ['--quick'] : [])];
  // Sloppy imports: the host's sources import './x.js' for './x.ts', as tsc wants.
  if ('Deno' in globalThis) return [process.execPath, ['run', '-A', '--quiet', '--unstable-sloppy-imports', ...args]];
  if ('Bun' in globalThis) return [process.execPath, args];
  return [process.execPath, [...process.execArgv, ...args]];
}

/** The loop rows' figures, measured in a child process of this runtime (see the file's comment). */
export async function loopRows(quick: boolean): Promise<LoopFigures> {
  const [bin, args] = command(quick);
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(bin, args, { cwd: fileURLToPath(new URL('../..', import.meta.url)), timeout: 600_000, maxBuffer: 16 << 20 }, (error, out, err) => {
      if (error) reject(new Error(`the loop rows' process failed: ${error.message}\n${String(err).slice(-2000)}`));
      else resolve(String(out));
    });
  });
  // NaN (no gc on Bun) does not survive JSON: null comes back as NaN.
  return JSON.parse(stdout.trim().split('\n').at(-1)!, (_k, v: unknown) => (v === null ? Number.NaN : v)) as LoopFigures;
}

if (process.argv.includes(SCRIPT) || process.argv[1] === SCRIPT) {
  const figures = await measureLoop(process.argv.includes('--quick'));
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  process.exit(0);
}
