// ns per fuel of a loop of one instruction, family by family, on whichever runtime runs this file
// (node bench/fuel-rate.mjs | deno run -A bench/fuel-rate.mjs | bun run bench/fuel-rate.mjs [names…]),
// against the built dist/. CPU time of 5 calls after 2 warm-up calls, median; "×add" is the ratio to a
// chain of i32.add measured in the same process. Written by rv13 to find instructions that buy far more
// engine time per fuel than ordinary code (0.03-0.1 ns per fuel); see docs/sandbox-instrumentation.md.
import wabtInit from 'wabt';

const N = 20000;
const loopOf = (pre, one, extra = '') => `(module (memory (export "memory") 1 1) ${extra}
  (func (export "run") (result i32) (local $x i32) (local $y i64) (local $f f64) (local $i i32) (local $v v128)
    ${pre}
    (loop $l ${one.repeat(10)}
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const ${N}))))
    (local.get $x)))`;
const tiny = `(func $t (param i32) (result i32) (i32.add (local.get 0) (i32.const 1)))
  (func $v) (type $ti (func (param i32) (result i32))) (type $tv (func))
  (table $tab 4 funcref) (elem (table $tab) (i32.const 0) func $t $v $t $v)
  (global $g (mut i32) (i32.const 0)) (data $d "abcdefgh")`;
const FAMILIES = {
  add: loopOf('', '(local.set $x (i32.add (local.get $x) (i32.const 7)))'),
  'call tiny': loopOf('', '(local.set $x (call $t (local.get $x)))', tiny),
  'call void': loopOf('', '(call $v)', tiny),
  'call_indirect tiny': loopOf('', '(local.set $x (call_indirect $tab (type $ti) (local.get $x) (i32.and (local.get $i) (i32.const 0))))', tiny),
  'call_indirect void': loopOf('', '(call_indirect $tab (type $tv) (i32.const 1))', tiny),
  br_table: loopOf('', '(block $a (block $b (block $c (br_table $a $b $c (i32.and (local.get $x) (i32.const 3))))) (local.set $x (i32.add (local.get $x) (i32.const 1))))', tiny),
  'global.get/set': loopOf('', '(global.set $g (i32.add (global.get $g) (i32.const 1)))', tiny),
  'memory.grow 0': loopOf('', '(local.set $x (i32.add (local.get $x) (memory.grow (i32.const 0))))'),
  'memory.size': loopOf('', '(local.set $x (i32.add (local.get $x) (memory.size)))'),
  'memory.fill 0': loopOf('', '(memory.fill (local.get $x) (i32.const 0) (i32.const 0))'),
  'memory.fill 1': loopOf('', '(memory.fill (i32.and (local.get $i) (i32.const 255)) (i32.const 0) (i32.const 1))'),
  'memory.copy 0': loopOf('', '(memory.copy (local.get $x) (i32.const 0) (i32.const 0))'),
  'memory.copy 8': loopOf('', '(memory.copy (i32.and (local.get $i) (i32.const 255)) (i32.const 512) (i32.const 8))'),
  'memory.init 0': loopOf('', '(memory.init $d (i32.const 0) (i32.const 0) (i32.const 0))', tiny),
  'table.size': loopOf('', '(local.set $x (i32.add (local.get $x) (table.size $tab)))', tiny),
  'table.grow 0': loopOf('', '(local.set $x (i32.add (local.get $x) (table.grow $tab (ref.null func) (i32.const 0))))', tiny),
  'ref.func': loopOf('', '(local.set $x (i32.add (local.get $x) (ref.is_null (ref.func $t))))', tiny + '(elem declare func $t)'),
  select: loopOf('', '(local.set $x (select (local.get $x) (i32.add (local.get $x) (i32.const 1)) (i32.and (local.get $x) (i32.const 1))))'),
  'i64.mul': loopOf('(local.set $y (i64.const 3))', '(local.set $y (i64.mul (local.get $y) (i64.const 7)))'),
  'i64.popcnt': loopOf('(local.set $y (i64.const 3))', '(local.set $y (i64.add (i64.popcnt (local.get $y)) (i64.const 7)))'),
  'f64.convert_i64_u': loopOf('(local.set $y (i64.const -3))', '(local.set $y (i64.add (i64.reinterpret_f64 (f64.convert_i64_u (local.get $y))) (i64.const -1)))'),
  'i64.trunc_f64_u': loopOf('(local.set $f (f64.const 3.5))', '(local.set $f (f64.add (f64.convert_i64_u (i64.trunc_f64_u (local.get $f))) (f64.const 1.5)))'),
  'i64.trunc_sat_f64_u': loopOf('(local.set $f (f64.const 3.5))', '(local.set $f (f64.add (f64.convert_i64_u (i64.trunc_sat_f64_u (local.get $f))) (f64.const 1.5)))'),
  'f32.demote': loopOf('(local.set $f (f64.const 3.5))', '(local.set $f (f64.promote_f32 (f32.demote_f64 (f64.add (local.get $f) (f64.const 1.25)))))'),
  'f64.nearest': loopOf('(local.set $f (f64.const 3.5))', '(local.set $f (f64.add (f64.nearest (local.get $f)) (f64.const 0.5)))'),
  'f64.min': loopOf('(local.set $f (f64.const 3.5))', '(local.set $f (f64.min (local.get $f) (f64.const 1e300)))'),
  'sign-ext': loopOf('', '(local.set $x (i32.add (i32.extend8_s (local.get $x)) (i32.const 3)))'),
  'i64.rem_u(ref)': loopOf('(local.set $y (i64.const 1000))', '(local.set $y (i64.rem_u (local.get $y) (i64.const 997)))'),
  'elem.drop': loopOf('', '(elem.drop 0)', tiny),
  'data.drop': loopOf('', '(data.drop $d)', tiny),
  'i8x16.swizzle': loopOf('', '(local.set $v (i8x16.swizzle (local.get $v) (local.get $v)))'),
  'i64x2.mul': loopOf('', '(local.set $v (i64x2.mul (local.get $v) (local.get $v)))'),
  'f64x2.nearest': loopOf('', '(local.set $v (f64x2.nearest (local.get $v)))'),
  'i8x16.popcnt': loopOf('', '(local.set $v (i8x16.popcnt (local.get $v)))'),
  'f32x4.trunc_sat': loopOf('', '(local.set $v (i32x4.trunc_sat_f32x4_u (local.get $v)))'),
  'f64x2.convert_low_u': loopOf('', '(local.set $v (f64x2.convert_low_i32x4_u (local.get $v)))'),
  'i32x4.trunc_sat_f64x2_u': loopOf('', '(local.set $v (i32x4.trunc_sat_f64x2_u_zero (local.get $v)))'),
  'i8x16.shl': loopOf('', '(local.set $v (i8x16.shl (local.get $v) (local.get $x)))'),
  'i8x16.shr_s': loopOf('', '(local.set $v (i8x16.shr_s (local.get $v) (local.get $x)))'),
  'i64x2.shr_s': loopOf('', '(local.set $v (i64x2.shr_s (local.get $v) (local.get $x)))'),
  'i16x8.q15mulr': loopOf('', '(local.set $v (i16x8.q15mulr_sat_s (local.get $v) (local.get $v)))'),
  'i64x2.extmul': loopOf('', '(local.set $v (i64x2.extmul_low_i32x4_u (local.get $v) (local.get $v)))'),
  'i8x16.bitmask': loopOf('', '(local.set $x (i32.add (local.get $x) (i8x16.bitmask (local.get $v))))'),
  'v128.load8_lane': loopOf('', '(local.set $v (v128.load8_lane 3 (i32.const 16) (local.get $v)))'),
};
const many = `(func $m (param i32 i32 i32 i32 i32 i32 i32 i32) (result i32) (local.get 7))
  (func $v) (func $v2) (type $tv (func)) (table $tab 4 funcref) (elem (table $tab) (i32.const 0) func $v $v2 $v $v2)
  (func $rec (param i32) (result i32) (if (result i32) (local.get 0) (then (call $rec (i32.sub (local.get 0) (i32.const 1)))) (else (i32.const 0))))`;
Object.assign(FAMILIES, {
  'call 8 params': loopOf('', '(local.set $x (call $m (local.get $x) (i32.const 1) (i32.const 1) (i32.const 1) (i32.const 1) (i32.const 1) (i32.const 1) (local.get $x)))', many),
  'call_indirect poly': loopOf('', '(call_indirect $tab (type $tv) (i32.and (local.get $i) (i32.const 3)))', many),
  'call recursion 50': loopOf('', '(local.set $x (i32.add (local.get $x) (call $rec (i32.const 50))))', many),
  'memory.fill 0 var': loopOf('', '(memory.fill (i32.and (local.get $i) (i32.const 255)) (i32.const 0) (i32.const 0))'),
  'memory.fill 0 at0': loopOf('', '(memory.fill (i32.const 0) (i32.const 0) (i32.const 0))'),
  'memory.copy 1': loopOf('', '(memory.copy (i32.and (local.get $i) (i32.const 255)) (i32.const 512) (i32.const 1))'),
  'memory.init 4': loopOf('', '(memory.init $d (i32.and (local.get $i) (i32.const 255)) (i32.const 0) (i32.const 4))', tiny),
});
const { createSandbox } = await import(new URL('../dist/index.js', import.meta.url).href);
const wabt = await wabtInit();
const only = process.argv.slice(2);
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) * 1000; };
const rows = [];
for (const [name, src] of Object.entries(FAMILIES)) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  let bytes;
  try { const m = wabt.parseWat(name + '.wat', src, { simd: true, threads: true, reference_types: true, bulk_memory: true, sign_extension: true, sat_float_to_int: true }); bytes = new Uint8Array(m.toBinary({}).buffer); m.destroy(); }
  catch (e) { console.log(name, 'WAT', String(e).slice(0, 200)); continue; }
  let sb;
  try { sb = await createSandbox(bytes, { limits: { timeoutMs: 60_000, fuel: 1e12 } }); } catch (e) { console.log(name, 'LOAD', String(e.message).slice(0, 200)); continue; }
  const samples = [];
  let fuel = 0;
  for (let k = 0; k < 7; k++) {
    const t0 = cpu();
    const o = await sb.call('run', new Uint8Array());
    const t = cpu() - t0;
    if (!o.ok) { console.log(name, 'FAIL', o.failure.code, o.failure.message?.slice(0, 100)); break; }
    fuel = o.fuelUsed;
    if (k >= 2) samples.push(t / fuel);
  }
  await sb.close();
  samples.sort((a, b) => a - b);
  if (samples.length) rows.push([name, fuel, samples[Math.floor(samples.length / 2)]]);
}
const base = rows.find((r) => r[0] === 'add')?.[2] ?? 1;
for (const [n, f, ns] of rows) console.log(`${n.padEnd(26)} fuel ${String(f).padStart(9)}  ${ns.toFixed(3)} ns/fuel  ${(ns / base).toFixed(1)}x add`);
