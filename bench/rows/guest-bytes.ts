/**
 * Rows of group "guests": what the first-party AssemblyScript plugins cost per
 * byte of input, at 10 KB, 100 KB and 1 MB. guard-shell and path-guard decide
 * a heredoc (Bash `command`, Write `content`); secret-redactor redacts a log
 * with keys at its start, middle and end (test/fixtures/big-inputs.ts). Ours:
 * the hook call, CPU time; anchor: the host's own JSON round trip of the same
 * hook input (`JSON.parse(JSON.stringify(input))`), a native decoder reading
 * the same bytes. The note has the fuel per byte (the same on every runtime)
 * and the peak linear memory, found as the fewest 64 KiB pages the call
 * succeeds in. sdk-guest/README.md keeps the before/after table.
 */
import { readFile } from 'node:fs/promises';
import { createSandbox, loadPlugin, type HookInput, type PluginOptions } from '../../host/index.js';
import { encodeHookInput } from '../../host/protocol/hook-request.js';
import { heredoc, logWithKeys } from '../../test/fixtures/big-inputs.js';
import { compare, runtimeName } from '../harness.js';
import { fig, makeRow, type Row } from './row.js';

const common = { session_id: 'bench', cwd: '/work/app', turn: 1, iteration: 1, permission_mode: 'default' } as const;
const SIZES = [10_000, 100_000, 1_000_000];
const config = { workspace: '/work/app' };

const PLUGINS: Record<string, { options: PluginOptions; input: (n: number) => HookInput }> = {
  'guard-shell': {
    options: {},
    input: (n) => ({ ...common, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: heredoc(n) }, tool_use_id: 't1' }),
  },
  'path-guard': {
    options: { grants: { configKeys: ['workspace'] }, config },
    input: (n) => ({ ...common, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: '/work/app/src/big.ts', content: heredoc(n) }, tool_use_id: 't1' }),
  },
  'secret-redactor': {
    options: {},
    input: (n) => ({ ...common, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'cat big.log' }, tool_response: logWithKeys(n).output, tool_use_id: 't1' }),
  },
};

/** The fewest 64 KiB pages `hook` succeeds in for this input (the call's peak linear memory). */
async function peakPages(wasm: Uint8Array, input: Uint8Array): Promise<number> {
  const run = async (pages: number) => {
    const sandbox = await createSandbox(wasm, { limits: { maxMemoryPages: pages, fuel: 1e10, timeoutMs: 60_000, maxInputBytes: 1 << 24, maxOutputBytes: 1 << 24 }, config });
    try {
      return (await sandbox.call('hook', input)).ok;
    } finally {
      await sandbox.close();
    }
  };
  let lo = 1;
  let hi = 1024;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (await run(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export async function perByteRows(quick: boolean): Promise<Row[]> {
  const runtime = runtimeName();
  const rows: Row[] = [];
  for (const [name, p] of Object.entries(PLUGINS)) {
    const wasm = new Uint8Array(await readFile(new URL(`../../plugins/${name}/build/${name}.wasm`, import.meta.url)));
    const plugin = await loadPlugin({ bytes: wasm }, { ...p.options, limits: { timeoutMs: 10_000, fuel: 1e10, maxMemoryPages: 1024 } });
    try {
      for (const n of SIZES) {
        const input = p.input(n);
        const first = await plugin.callHook(input);
        if (!first.ok) throw new Error(`guests bench: ${name} at ${n} bytes: ${first.failure.code}: ${first.failure.message}`);
        const samples = quick ? 6 : n >= 1_000_000 ? 15 : 60;
        const r = await compare(
          { ours: [() => plugin.callHook(input), { samples }], anchor: () => JSON.parse(JSON.stringify(input)) },
          { rounds: 3, warmup: 2, samples: samples * 2, maxMs: quick ? 2_000 : 8_000, clock: 'cpu' },
        );
        const pages = await peakPages(wasm, encodeHookInput(input, 0));
        rows.push(makeRow('guests', runtime, {
          what: `${name} hook call on ${n / 1000} KB`,
          ours: fig(r.ours!, 'ms', 'cpu'),
          anchorName: 'JSON round trip of the same input',
          anchor: fig(r.anchor!, 'ms', 'cpu'),
          note: `${Math.round((first.fuelUsed ?? NaN) / n)} fuel per byte (${((first.fuelUsed ?? NaN) / 1e6).toFixed(1)}M of the default 1,000M); peak memory ${pages} pages (${(pages / 16).toFixed(1)} MiB of the default 16)`,
        }));
      }
    } finally {
      await plugin.close();
    }
  }
  return rows;
}
