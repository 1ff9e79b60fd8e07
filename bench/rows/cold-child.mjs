// One cold start, in a fresh process of whichever runtime runs this file (Node,
// Deno or Bun). Modes (argv[2]):
//   (none)   `import('wasmhooks')` (the built dist/), load guard-shell by name, first decision;
//   extism   the raw Extism equivalent: import, compile the same wasm, createPlugin on the
//            module (with a fetch of its own, so Extism does not touch the global one,
//            which on Node loads undici), one `hook` call with the same request bytes
//            (hex in argv[3], encoded by the parent);
//   deps     only the third-party packages the main entry imports, each timed in turn;
//   zod-first  as (none), in a process that imported zod before (an application that defines
//            tools with zod has): the clocks start after zod's import, so the figures are
//            what wasmhooks adds to such a process;
//   empty    nothing: the runtime's own start-up (the `boot` figures) is the whole run.
// Prints one JSON line of ms figures: wall since this module started and this
// process's CPU time since then (which a loaded machine inflates less), per
// phase (`import`, `load`, `first`, and `importCpu`, `loadCpu`, `firstCpu`);
// and `bootWall`/`bootCpu`, what the runtime spent before this module ran
// (wall since the process's time origin, CPU of the whole process so far).
import { readFile } from 'node:fs/promises';

let cpu0 = process.cpuUsage();
let t0 = performance.now();
const boot = { bootWall: +t0.toFixed(2), bootCpu: +((cpu0.user + cpu0.system) / 1000).toFixed(2) };
const ms = (t) => +(t - t0).toFixed(2);
const cpu = () => {
  const c = process.cpuUsage(cpu0);
  return +((c.user + c.system) / 1000).toFixed(2);
};
const input = { session_id: 's', cwd: '/tmp', turn: 1, iteration: 1, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls -la' }, tool_use_id: 't' };
const mode = process.argv[2] ?? 'wasmhooks';
let imported, loaded, decided, ok, importCpu, loadCpu;
if (mode === 'empty') {
  console.log(JSON.stringify({ ...boot, total: 0, cpu: cpu(), ok: true }));
  process.exit(0);
} else if (mode === 'deps') {
  // The main entry's static imports (dist/index.js's graph), in order; each figure includes what an earlier one already loaded.
  const out = {};
  for (const name of ['zod', 're2js']) {
    const t = performance.now();
    await import(name);
    out[name] = +(performance.now() - t).toFixed(2);
  }
  console.log(JSON.stringify({ deps: out, total: ms(performance.now()), cpu: cpu(), ok: true }));
  process.exit(0);
} else if (mode === 'extism') {
  const { default: createPlugin } = await import('@extism/extism');
  imported = performance.now();
  importCpu = cpu();
  const bytes = await readFile(new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url));
  const module = await WebAssembly.compile(new Uint8Array(bytes));
  const plugin = await createPlugin(module, { useWasi: false, fetch: (...a) => globalThis.fetch(...a) });
  loaded = performance.now();
  const request = new Uint8Array((process.argv[3] ?? '').match(/../g).map((h) => parseInt(h, 16)));
  loadCpu = cpu();
  const out = await plugin.call('hook', request);
  decided = performance.now();
  ok = out !== null;
  await plugin.close();
} else {
  if (mode === 'zod-first') {
    await import('zod');
    cpu0 = process.cpuUsage();
    t0 = performance.now();
  }
  const w = await import('../../dist/index.js');
  imported = performance.now();
  importCpu = cpu();
  const plugin = await w.loadPlugin({ name: 'guard-shell' });
  loaded = performance.now();
  loadCpu = cpu();
  const r = await plugin.callHook(input);
  decided = performance.now();
  ok = r.ok && r.output.decision === 'allow';
  await plugin.close();
}
const total = cpu();
console.log(JSON.stringify({ ...boot, import: ms(imported), load: ms(loaded), first: ms(decided), total: ms(decided), importCpu, loadCpu, firstCpu: total, cpu: total, ok }));
