// One cold start, in a fresh process: `import('wasmhooks')` (the built dist/),
// load guard-shell by name, first decision; or (argv[2] === 'extism') the raw
// Extism equivalent: import, createPlugin on the same wasm, one `hook` call. Prints one JSON line of ms figures
// (wall, and this process's CPU time, which a loaded machine inflates less).
import { readFile } from 'node:fs/promises';

const cpu0 = process.cpuUsage();
const t0 = performance.now();
const ms = (t) => +(t - t0).toFixed(2);
const input = { session_id: 's', cwd: '/tmp', turn: 1, iteration: 1, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls -la' }, tool_use_id: 't' };
let imported, loaded, decided, ok;
if (process.argv[2] === 'extism') {
  const { default: createPlugin } = await import('@extism/extism');
  imported = performance.now();
  const bytes = await readFile(new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url));
  const plugin = await createPlugin({ wasm: [{ data: new Uint8Array(bytes) }] }, { useWasi: false });
  loaded = performance.now();
  // The same PreToolUse request bytes, encoded by the parent (hex in argv[3]).
  const request = new Uint8Array(Buffer.from(process.argv[3] ?? '', 'hex'));
  const out = await plugin.call('hook', request);
  decided = performance.now();
  ok = out !== null;
  await plugin.close();
} else {
  const w = await import('../../dist/index.js');
  imported = performance.now();
  const plugin = await w.loadPlugin({ name: 'guard-shell' });
  loaded = performance.now();
  const r = await plugin.callHook(input);
  decided = performance.now();
  ok = r.ok && r.output.decision === 'allow';
  await plugin.close();
}
const c = process.cpuUsage(cpu0);
console.log(JSON.stringify({ import: ms(imported), load: ms(loaded), first: ms(decided), total: ms(decided), cpu: +((c.user + c.system) / 1000).toFixed(2), ok }));
