// Cross-runtime scenario runner: the same file runs under `tsx` (Node),
// `deno run -A` and `bun run`. Each `*.xrt.ts` module exports `scenarios`.
// Usage: run.ts [file.xrt.ts …]  (default: every *.xrt.ts beside this file)
//
// A scenario that fails is run once more, and passes only if that second run passes; it is then
// reported as FLAKY, with its first failure, and counted in the summary line. Why: many scenarios hold
// a deadline or a stall to a limit (the sandbox's promises are about time), and on CI's two cores,
// loaded by the rest of the suite, one run in a few hundred lands in a slice the machine gave to
// another process (CI runs failed one such check each: an idle worker's CPU, a 30 MB load's stall).
// A behaviour that is wrong fails both runs; a FLAKY line is still read, and its first failure kept.
// WASMHOOKS_XRT_NO_RETRY=1 turns the second run off.
// WASMHOOKS_XRT_NODE_TWINS=skip (test/setup/xrt-suite.ts, on Node) leaves to their vitest twins the
// scenarios that a vitest file runs verbatim on Node (test/xrt/twin.ts), once that file still calls them.
import { readFile, readdir } from 'node:fs/promises';
import { twinOf } from './twin.ts';

type Scenario = () => Promise<void>;

const runtime =
  'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : `node ${process.version}`;
const here = new URL('.', import.meta.url);
const args = process.argv.slice(2).filter((a) => a.endsWith('.xrt.ts'));
const files = args.length
  ? args.map((a) => new URL(a.replace(/^.*test\/xrt\//, ''), here))
  : (await readdir(here)).filter((f) => f.endsWith('.xrt.ts')).sort().map((f) => new URL(f, here));
const retry = process.env.WASMHOOKS_XRT_NO_RETRY !== '1';
const skipTwins = runtime.startsWith('node') && process.env.WASMHOOKS_XRT_NODE_TWINS === 'skip';

const failureOf = (error: unknown): string => String((error as Error)?.stack ?? error);

/** Runs `scenario`, timed; its error, if any. */
async function attempt(scenario: Scenario): Promise<{ ms: number; error?: string }> {
  const started = performance.now();
  try {
    await scenario();
    return { ms: performance.now() - started };
  } catch (error) {
    return { ms: performance.now() - started, error: failureOf(error) };
  }
}

let passed = 0;
let failed = 0;
let twins = 0;
const flaky: string[] = [];
for (const file of files) {
  const mod = (await import(file.href)) as { scenarios?: Record<string, Scenario> };
  const name = file.pathname.split('/').pop();
  for (const [title, scenario] of Object.entries(mod.scenarios ?? {})) {
    const twin = skipTwins ? twinOf(scenario) : undefined;
    if (twin) {
      const source = await readFile(new URL(`../../${twin.file}`, here), 'utf8').catch(() => '');
      if (source.includes(`${twin.fn}(`)) {
        twins++;
        console.log(`  twin ${name} › ${title} (run on Node by ${twin.file})`);
        continue;
      }
      failed++;
      console.log(`  FAIL ${name} › ${title}\n${twin.file}, its vitest twin, no longer calls ${twin.fn}(): run it here or mark the twin again`);
      continue;
    }
    const first = await attempt(scenario);
    if (first.error === undefined) {
      passed++;
      console.log(`  ok   ${name} › ${title} (${first.ms.toFixed(0)} ms)`);
      continue;
    }
    const second = retry ? await attempt(scenario) : first;
    if (retry && second.error === undefined) {
      passed++;
      flaky.push(`${name} › ${title}`);
      // One line the suite's log keeps (test/setup/xrt-suite.ts prints it), then the whole first failure.
      const line = first.error.split('\n').find((l) => l.trim()) ?? '';
      console.log(`  FLAKY ${name} › ${title}: failed (${line.trim()}), then passed when run again (${second.ms.toFixed(0)} ms); the first failure:\n${first.error}`);
      continue;
    }
    failed++;
    const again = retry ? `\n  (run again, it failed again:)\n${second.error}` : '';
    console.log(`  FAIL ${name} › ${title}\n${first.error}${again}`);
  }
}
const flakyNote = flaky.length ? ` (${flaky.length} flaky: ${flaky.join('; ')})` : '';
const twinNote = twins ? `, ${twins} run on Node by their vitest twins` : '';
console.log(`xrt[${runtime}]: ${passed} passed, ${failed} failed${twinNote}${flakyNote}`);
// Leftover handles (servers, workers) must not keep a runtime alive.
process.exit(failed === 0 && passed > 0 ? 0 : 1);
