// Review of red12 (rv13) on Node, Deno and Bun against dist/: the holes left in red12's two classes.
// Vitest twins that fail on the old code: test/sandbox/rv13.engine-fuel.test.ts, test/cli/rv13.terminal.test.ts.
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import wabtInit from 'wabt';
import { createSandbox } from '../../dist/index.js';
import { runCli } from './cli-run.ts';
import { field } from './wat.ts';

const { cannedPlugin } = (await import(new URL('../fixtures/canned.ts', import.meta.url).href)) as typeof import('../fixtures/canned.js');

const ESC = '\u001b';
/** C0 but tab and newline, DEL, C1, and the bidi controls. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;


const ITERATIONS = 1_000;
const FIELDS = `(func $v) (type $tv (func)) (table $tab 2 funcref) (elem (table $tab) (i32.const 0) func $v $v) (data $d "abcdefgh")`;
/** [name, instruction, the same shape without the engine's work, least extra fuel per instruction]. */
const CASES: Array<[string, string, string, number]> = [
  ['call_indirect', '(call_indirect $tab (type $tv) (i32.and (local.get $i) (i32.const 1)))', '(call $v) (drop (i32.and (local.get $i) (i32.const 1)))', 15],
  ['memory.fill of 0 bytes', '(memory.fill (i32.and (local.get $i) (i32.const 255)) (i32.const 0) (i32.const 0))', '(drop (i32.and (local.get $i) (i32.const 255))) (nop) (nop)', 400],
  ['memory.copy of 0 bytes', '(memory.copy (i32.and (local.get $i) (i32.const 255)) (i32.const 0) (i32.const 0))', '(drop (i32.and (local.get $i) (i32.const 255))) (nop) (nop)', 400],
  ['memory.init of 4 bytes', '(memory.init $d (i32.and (local.get $i) (i32.const 255)) (i32.const 0) (i32.const 4))', '(drop (i32.and (local.get $i) (i32.const 255)))', 100],
  ['data.drop', '(data.drop $d)', '(nop)', 100],
  ['memory.grow 0', '(local.set $x (i32.add (local.get $x) (memory.grow (i32.const 0))))', '(local.set $x (i32.add (local.get $x) (memory.size)))', 4_000],
  ['i64.trunc_f64_u', '(local.set $f (f64.convert_i64_u (i64.trunc_f64_u (local.get $f))))', '(local.set $f (f64.convert_i64_u (i64.trunc_sat_f64_u (local.get $f))))', 5],
];

export const scenarios: Record<string, () => Promise<void>> = {
  'call_indirect, empty bulk ops, memory.grow 0, memory.init, data.drop and trapping truncations are charged for the engine call, both metering modes': async () => {
    const wabt = await wabtInit();
    const loop = (one: string) => {
      const mod = wabt.parseWat('rv13.wat', `(module (memory (export "memory") 1 2) ${FIELDS}
        (func (export "run") (result i32) (local $x i32) (local $f f64) (local $i i32)
          (local.set $f (f64.const 3.5))
          (loop $l ${one.repeat(10)}
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br_if $l (i32.lt_u (local.get $i) (i32.const ${ITERATIONS}))))
          (local.get $x)))`, { bulk_memory: true, reference_types: true });
      try {
        return new Uint8Array(mod.toBinary({}).buffer);
      } finally {
        mod.destroy();
      }
    };
    const fuelOf = async (bytes: Uint8Array, metering: 'fast' | 'exact') => {
      const sandbox = await createSandbox(bytes, { metering, limits: { timeoutMs: 10_000, fuel: 1e11 } });
      try {
        const outcome = await sandbox.call('run', new Uint8Array());
        assert.ok(outcome.ok, !outcome.ok ? outcome.failure.message : '');
        return outcome.fuelUsed;
      } finally {
        await sandbox.close();
      }
    };
    for (const metering of ['fast', 'exact'] as const) {
      for (const [name, op, plain, least] of CASES) {
        const extra = (await fuelOf(loop(op), metering)) - (await fuelOf(loop(plain), metering));
        assert.ok(extra >= 10 * ITERATIONS * least, `${metering} ${name}: ${extra} more fuel for ${10 * ITERATIONS} of them`);
      }
    }
  },

  'a call pays 1 fuel per declared local past 256 (a v128 counts 2), both metering modes': async () => {
    const wabt = await wabtInit();
    const caller = (locals: string) => {
      const mod = wabt.parseWat('locals.wat', `(module (memory (export "memory") 1)
        (func $t (param i32) (result i32) ${locals} (local.get 0))
        (func (export "run") (result i32) (local $x i32) (local $i i32)
          (loop $l (local.set $x (call $t (local.get $x)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br_if $l (i32.lt_u (local.get $i) (i32.const ${ITERATIONS}))))
          (local.get $x)))`, { simd: true });
      try {
        return new Uint8Array(mod.toBinary({}).buffer);
      } finally {
        mod.destroy();
      }
    };
    for (const metering of ['fast', 'exact'] as const) {
      const fuelOf = async (bytes: Uint8Array) => {
        const sandbox = await createSandbox(bytes, { metering, limits: { timeoutMs: 10_000, fuel: 1e11 } });
        try {
          const outcome = await sandbox.call('run', new Uint8Array());
          assert.ok(outcome.ok, !outcome.ok ? outcome.failure.message : '');
          return outcome.fuelUsed;
        } finally {
          await sandbox.close();
        }
      };
      const none = await fuelOf(caller(''));
      assert.equal((await fuelOf(caller(`(local ${Array(2_000).fill('i64').join(' ')})`))) - none, ITERATIONS * 1_744, metering);
      assert.equal((await fuelOf(caller(`(local ${Array(1_000).fill('v128').join(' ')})`))) - none, ITERATIONS * 1_744, metering);
      assert.equal(await fuelOf(caller(`(local ${Array(200).fill('i32').join(' ')})`)), none, metering);
    }
  },

  "`plugin add` shows a plugin's name, version and grants as escapes": async () => {
    const binding = new Uint8Array([...field(1, 6), ...field(2, 'Bash')]);
    const grants = new Uint8Array([...field(1, '\u202emoc.live'), ...field(3, `k${ESC}]52;c;eA==\u0007`)]);
    const describe = new Uint8Array([...field(1, `evil${ESC}[8m`), ...field(2, '0.1.0\u009b2K'), ...field(3, 1), ...field(4, binding), ...field(6, grants)]);
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-xrt-rv13-'));
    await writeFile(join(dir, 'evil.wasm'), cannedPlugin({ describe, hook: new Uint8Array() }));
    const refused = await runCli(['plugin', 'add', 'evil.wasm'], dir);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /asks for grants/);
    assert.doesNotMatch(refused.stderr, UNSAFE);
    const added = await runCli(['plugin', 'add', 'evil.wasm', '--accept-grants'], dir);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /^added evil/);
    assert.doesNotMatch(added.stdout, UNSAFE);
    assert.match(added.stdout, /\\u202e/);
  },
};
