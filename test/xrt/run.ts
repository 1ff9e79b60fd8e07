// Cross-runtime scenario runner: the same file runs under `tsx` (Node),
// `deno run -A` and `bun run`. Each `*.xrt.ts` module exports `scenarios`.
// Usage: run.ts [file.xrt.ts …]  (default: every *.xrt.ts beside this file)
import { readdir } from 'node:fs/promises';

type Scenario = () => Promise<void>;

const runtime =
  'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : `node ${process.version}`;
const here = new URL('.', import.meta.url);
const args = process.argv.slice(2).filter((a) => a.endsWith('.xrt.ts'));
const files = args.length
  ? args.map((a) => new URL(a.replace(/^.*test\/xrt\//, ''), here))
  : (await readdir(here)).filter((f) => f.endsWith('.xrt.ts')).sort().map((f) => new URL(f, here));

let passed = 0;
let failed = 0;
for (const file of files) {
  const mod = (await import(file.href)) as { scenarios?: Record<string, Scenario> };
  const name = file.pathname.split('/').pop();
  for (const [title, scenario] of Object.entries(mod.scenarios ?? {})) {
    const started = performance.now();
    try {
      await scenario();
      passed++;
      console.log(`  ok   ${name} › ${title} (${(performance.now() - started).toFixed(0)} ms)`);
    } catch (error) {
      failed++;
      console.log(`  FAIL ${name} › ${title}\n${String((error as Error)?.stack ?? error)}`);
    }
  }
}
console.log(`xrt[${runtime}]: ${passed} passed, ${failed} failed`);
// Leftover handles (servers, workers) must not keep a runtime alive.
process.exit(failed === 0 && passed > 0 ? 0 : 1);
