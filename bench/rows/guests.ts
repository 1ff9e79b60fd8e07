/**
 * Row group "guests": the same guard written in two guest languages. The C
 * port of path-guard (plugins/path-guard-c, on the C SDK) against the
 * AssemblyScript path-guard, loaded the same way and asked the same
 * PreToolUse question; the anchor is the AssemblyScript build. Also their
 * fuel per call (CPU work the host meters) and module sizes; and the cost per
 * byte of the AssemblyScript plugins on large inputs (guest-bytes.ts).
 */
import { readFile } from 'node:fs/promises';
import { loadPlugin, type HookInput } from '../../host/index.js';
import { buildC } from '../../scripts/build-c.js';
import { compare, runtimeName } from '../harness.js';
import { fig, makeRow, type RowsFn } from './row.js';
import { perByteRows } from './guest-bytes.js';

const read = (file_path: string): HookInput => ({
  session_id: 'bench', cwd: '/work/app', turn: 1, iteration: 1, permission_mode: 'default',
  hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path }, tool_use_id: 'toolu_1',
});

export const run: RowsFn = async ({ quick }) => {
  const runtime = runtimeName();
  await buildC({ names: ['path-guard-c'], log: () => {} });
  const bytes = async (name: string) => new Uint8Array(await readFile(new URL(`../../plugins/${name}/build/${name}.wasm`, import.meta.url)));
  const [cBytes, asBytes] = [await bytes('path-guard-c'), await bytes('path-guard')];
  const options = { grants: { configKeys: ['workspace'] }, config: { workspace: '/work/app,/tmp/scratch' }, limits: { timeoutMs: 1_000 } };
  const c = await loadPlugin({ bytes: cBytes }, options);
  const as = await loadPlugin({ bytes: asBytes }, options);
  const inside = read('src/../lib/index.ts');
  const escape = read('../../etc/passwd');
  const fuel: Record<string, number> = {};
  for (const [name, p] of [['c', c], ['as', as]] as const) {
    for (const [which, input, want] of [['inside', inside, 'continue'], ['escape', escape, 'deny']] as const) {
      const r = await p.callHook(input);
      if (!r.ok || r.output.decision !== want) throw new Error(`guests bench: ${name} answered ${JSON.stringify(r)} for ${which}`);
      fuel[`${name}-${which}`] = r.fuelUsed ?? NaN;
    }
  }
  const fast = { samples: quick ? 300 : 3000, maxMs: quick ? 1_500 : 8_000 };
  const r = await compare(
    {
      cInside: [() => c.callHook(inside), fast],
      asInside: [() => as.callHook(inside), fast],
      cEscape: [() => c.callHook(escape), fast],
      asEscape: [() => as.callHook(escape), fast],
    },
    { rounds: 10 },
  );
  await Promise.all([c.close(), as.close()]);
  const note = (which: 'inside' | 'escape') => `fuel per call: C ${fuel[`c-${which}`]}, AssemblyScript ${fuel[`as-${which}`]}; modules: C ${(cBytes.length / 1024).toFixed(1)} KiB, AssemblyScript ${(asBytes.length / 1024).toFixed(1)} KiB`;
  return [
    ...(await perByteRows(quick)),
    makeRow('guests', runtime, {
      what: 'path-guard in C (C SDK) callHook, a path inside the workspace',
      ours: fig(r.cInside!),
      anchorName: 'path-guard in AssemblyScript',
      anchor: fig(r.asInside!),
      note: note('inside'),
    }),
    makeRow('guests', runtime, {
      what: 'path-guard in C (C SDK) callHook, a .. escape (deny with a built reason)',
      ours: fig(r.cEscape!),
      anchorName: 'path-guard in AssemblyScript',
      anchor: fig(r.asEscape!),
      note: note('escape'),
    }),
  ];
};
