// Red review (red12) on Node, Deno and Bun, through the built CLI (dist/cli.js) and ESM: each scenario
// is a class of hole that was open on `main`, now closed. Vitest twins that fail on the old code:
// test/cli/red12.terminal.test.ts (and test/cli/workspace.test.ts for the default guard's new answer),
// test/plugins/guard-shell.test.ts, test/anylang/red12.wasi-readdir.test.ts, test/sandbox/red12.divide-fuel.test.ts.
import assert from 'node:assert/strict';
import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import wabtInit from 'wabt';
import { createSandbox } from '../../dist/index.js';
import { runCli } from './cli-run.ts';
import { field } from './wat.ts';

const { cannedPlugin } = (await import(new URL('../fixtures/canned.ts', import.meta.url).href)) as typeof import('../fixtures/canned.js');

/** C0 but tab and newline, DEL, C1, and the bidi controls. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const ESC = '\u001b';


/** A plugin bound to PreToolUse with `matcher`, answering `hook` (HookResponse fields). */
function guard(matcher: string, hook: { decision: number; reason?: string; updatedInputJson?: string }): Uint8Array {
  const binding = new Uint8Array([...field(1, 6), ...field(2, matcher)]);
  const describe = new Uint8Array([...field(1, 'evil'), ...field(2, '0.1.0'), ...field(3, 1), ...field(4, binding)]);
  const response = new Uint8Array([
    ...field(1, hook.decision),
    ...(hook.reason ? field(2, hook.reason) : []),
    ...(hook.updatedInputJson ? field(3, hook.updatedInputJson) : []),
  ]);
  return cannedPlugin({ describe, hook: response });
}

async function workspace(files: Record<string, string | Uint8Array>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-xrt-red12-'));
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  return dir;
}

const script = (input: unknown) => JSON.stringify({ turns: [{ toolCalls: [{ name: 'Bash', input }] }, { text: 'ok' }] });

export const scenarios: Record<string, () => Promise<void>> = {
  "the CLI's call line shows a deeply nested tool input's bidi override and C1 controls as escapes": async () => {
    const dir = await workspace({ 'script.json': script({ a: { b: { c: { d: `ok\u202e)mr(\u009b2J${ESC}[2K` } } } }) });
    const r = await runCli(['run', 'go', '--script', 'script.json', '--no-default-guards', '--no-tools'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /⊘ Bash\(/);
    assert.doesNotMatch(r.stdout, UNSAFE);
    assert.match(r.stdout, /\\u202e/);
  },
  "`wasmhooks plugin test` shows a plugin's reason and rewrite as escapes": async () => {
    const dir = await workspace({
      'script.json': script({ command: 'ls' }),
      'evil.wasm': guard('Bash', { decision: 2, reason: `fine\u202e\u009b2K${ESC}[1A`, updatedInputJson: JSON.stringify({ command: 'ls\u202e\u0085' }) }),
    });
    const rec = await runCli(['run', 'go', '--script', 'script.json', '--record', 'rec.jsonl', '--no-default-guards', '--no-tools'], dir);
    assert.equal(rec.code, 0, rec.stderr);
    const r = await runCli(['plugin', 'test', 'evil.wasm', '--events', 'rec.jsonl'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /allow \+rewrite/);
    assert.doesNotMatch(r.stdout, UNSAFE);
    assert.match(r.stdout, /\\u202e/);
  },
  "a CLI error quoting a plugin's matcher shows its bidi override and escapes as escapes": async () => {
    const dir = await workspace({ 'evil.wasm': guard(`(\u202e${ESC}[2K`, { decision: 1 }) });
    const r = await runCli(['run', 'x', '--plugin', 'evil.wasm'], dir);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /invalid matcher/);
    assert.doesNotMatch(r.stderr, UNSAFE);
    assert.match(r.stderr, /\\u202e/);
  },
  "the CLI's default guard-shell leaves a command no rule denies to the permission step (denied by no-callback under --json), and still denies a destructive one": async () => {
    const dir = await workspace({
      'script.json': JSON.stringify({
        turns: [{ toolCalls: [{ name: 'Bash', input: { command: 'echo pwned > proof.txt' } }, { name: 'Bash', input: { command: 'rm -rf /' } }] }, { text: 'done' }],
      }),
    });
    const r = await runCli(['run', 'go', '--script', 'script.json', '--json'], dir);
    assert.equal(r.code, 0, r.stderr);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; source?: string; reason?: string; hookName?: string; decision?: string });
    const settled = events.filter((e) => e.type === 'tool.output' || e.type === 'tool.denied');
    assert.deepEqual(settled.map((e) => [e.type, e.source]), [['tool.denied', 'no-callback'], ['tool.denied', 'hook']]);
    assert.match(settled[1]!.reason!, /guard-shell: rm-recursive-root/);
    assert.deepEqual(events.filter((e) => e.type === 'hook.end' && e.hookName === 'guard-shell').map((e) => e.decision), ['continue', 'deny']);
    await assert.rejects(access(join(dir, 'proof.txt')));
  },
  'WASI fd_readdir with a cookie past 2^63 (2^64 − 1 as a libc end marker) lists nothing instead of trapping in the host': async () => {
    // Each export lists the preopen (fd 3) from one cookie; its output: errno (u32 LE), then the bytes used.
    const listing = (name: string, cookie: string) => `(func (export "${name}") (result i32) (local $o i64)
      (local.set $o (call $alloc (i64.const 8)))
      (call $store_u64 (local.get $o) (i64.or
        (i64.extend_i32_u (call $readdir (i32.const 3) (i32.const 1024) (i32.const 256) (i64.const ${cookie}) (i32.const 512)))
        (i64.shl (i64.extend_i32_u (i32.load (i32.const 512))) (i64.const 32))))
      (call $output_set (local.get $o) (i64.const 8))
      (i32.const 0))`;
    const wat = `(module
      (import "wasi_snapshot_preview1" "fd_readdir" (func $readdir (param i32 i32 i32 i64 i32) (result i32)))
      (import "extism:host/env" "alloc" (func $alloc (param i64) (result i64)))
      (import "extism:host/env" "store_u64" (func $store_u64 (param i64 i64)))
      (import "extism:host/env" "output_set" (func $output_set (param i64 i64)))
      (memory (export "memory") 1)
      ${listing('from_start', '0')} ${listing('past_end', '-1')} ${listing('past_2_63', '-9223372036854775808')})`;
    const mod = (await wabtInit()).parseWat('red12-readdir.wat', wat);
    const bytes = new Uint8Array(mod.toBinary({}).buffer);
    mod.destroy();
    const base = await mkdtemp(join(tmpdir(), 'red12-xrt-'));
    await mkdir(join(base, 'g'));
    await writeFile(join(base, 'g', 'a.txt'), 'x');
    const sandbox = await createSandbox(bytes, { wasi: { preopens: { '/g': join(base, 'g') } } });
    try {
      const answer = async (fn: string) => {
        const outcome = await sandbox.call(fn, new Uint8Array());
        assert.ok(outcome.ok, `${fn}: ${outcome.ok ? '' : `${outcome.failure.code} ${outcome.failure.message}`}`);
        const view = new DataView(outcome.output.buffer, outcome.output.byteOffset, 8);
        return [view.getUint32(0, true), view.getUint32(4, true)];
      };
      assert.deepEqual(await answer('from_start'), [0, 24 + 'a.txt'.length]);
      assert.deepEqual(await answer('past_end'), [0, 0]);
      assert.deepEqual(await answer('past_2_63'), [0, 0]);
    } finally {
      await sandbox.close();
      await rm(base, { recursive: true, force: true });
    }
  },
  'integer division, remainder and float div/sqrt (scalar and SIMD) are charged for their latency (at least 20 fuel more than an add), both metering modes': async () => {
    const wabt = await wabtInit();
    const loop = (ty: string, op: string, unary: boolean) => {
      const one = unary ? `(local.set $x (${ty}.${op} (local.get $x)))` : `(local.set $x (${ty}.${op} (local.get $x) (local.get $y)))`;
      const lanes = (v: string) => Array(ty === 'f32x4' ? 4 : 2).fill(v).join(' ');
      const [local, x, y] = ty.includes('x') ? ['v128', `(v128.const ${ty} ${lanes('1000')})`, `(v128.const ${ty} ${lanes('3')})`] : [ty, `(${ty}.const 1000)`, `(${ty}.const 3)`];
      const mod = wabt.parseWat('d.wat', `(module (memory (export "memory") 1)
        (func (export "run") (result i32) (local $x ${local}) (local $y ${local}) (local $i i32)
          (local.set $x ${x}) (local.set $y ${y})
          (loop $l ${one.repeat(10)} (local.set $i (i32.add (local.get $i) (i32.const 1))) (br_if $l (i32.lt_u (local.get $i) (i32.const 1000))))
          (i32.const 0)))`, { simd: true });
      const bytes = new Uint8Array(mod.toBinary({}).buffer);
      mod.destroy();
      return bytes;
    };
    const cases: Array<[string, string, string, boolean]> = [
      ['i32', 'div_u', 'add', false], ['i32', 'rem_s', 'add', false], ['i64', 'div_s', 'add', false], ['i64', 'rem_u', 'add', false],
      ['f32', 'div', 'add', false], ['f64', 'div', 'add', false], ['f64', 'sqrt', 'neg', true],
      ['f32x4', 'div', 'add', false], ['f64x2', 'sqrt', 'neg', true],
    ];
    for (const metering of ['fast', 'exact'] as const) {
      for (const [ty, op, like, unary] of cases) {
        const fuelOf = async (o: string) => {
          const sandbox = await createSandbox(loop(ty, o, unary), { metering, limits: { timeoutMs: 10_000 } });
          try {
            const outcome = await sandbox.call('run', new Uint8Array());
            assert.ok(outcome.ok, `${ty}.${o}`);
            return outcome.fuelUsed;
          } finally {
            await sandbox.close();
          }
        };
        const extra = (await fuelOf(op)) - (await fuelOf(like));
        assert.ok(extra >= 10 * 1_000 * 20, `${metering} ${ty}.${op}: ${extra} more fuel than ${like} for 10,000 of them`);
      }
    }
  },
  'atomic stores, read-modify-writes, atomic.fence and table.get are charged for what the engine does (both metering modes)': async () => {
    const wabt = await wabtInit();
    const fuelOf = async (body: string, metering: 'fast' | 'exact') => {
      const mod = wabt.parseWat('a.wat', `(module (memory (export "memory") 1) (func $f) (table $t 8 funcref) (elem (table $t) (i32.const 0) func $f $f $f $f $f $f $f $f)
        (func (export "run") (result i32) (local $i i32)
          (loop $l ${body.repeat(10)} (local.set $i (i32.add (local.get $i) (i32.const 1))) (br_if $l (i32.lt_u (local.get $i) (i32.const 1000))))
          (i32.const 0)))`, { threads: true, reference_types: true });
      const bytes = new Uint8Array(mod.toBinary({}).buffer);
      mod.destroy();
      const sandbox = await createSandbox(bytes, { metering, limits: { timeoutMs: 10_000 } });
      try {
        const outcome = await sandbox.call('run', new Uint8Array());
        assert.ok(outcome.ok, body);
        return outcome.fuelUsed;
      } finally {
        await sandbox.close();
      }
    };
    for (const metering of ['fast', 'exact'] as const) {
      const rmw = (await fuelOf('(drop (i32.atomic.rmw.add (i32.const 64) (local.get $i)))', metering)) - (await fuelOf('(drop (i32.add (i32.const 64) (local.get $i)))', metering));
      assert.ok(rmw >= 10 * 1_000 * 40, `${metering} rmw: ${rmw}`);
      const fence = (await fuelOf('(atomic.fence)', metering)) - (await fuelOf('(nop)', metering));
      assert.ok(fence >= 10 * 1_000 * 1_000, `${metering} fence: ${fence}`);
      // table.get reads through the engine's table (2-7 ns): 48 too.
      const get = (await fuelOf('(drop (table.get $t (i32.and (local.get $i) (i32.const 7))))', metering)) - (await fuelOf('(drop (i32.and (local.get $i) (i32.const 7)))', metering));
      assert.ok(get >= 10 * 1_000 * 40, `${metering} table.get: ${get}`);
    }
  },
};
