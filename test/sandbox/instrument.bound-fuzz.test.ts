// Random control flow against the per-path bound of UNCHECKED_MAX (walk.ts, `Walk.precise`): nested blocks, ifs with
// and without else, loops (with and without params) left and re-entered by br, br_if and br_table from any depth,
// branches to outer labels, return and unreachable in arms, dead code after each. Every instruction's weight is
// added to an exported `work` global (each unit of work adds its own weight, each condition and loop guard its
// own), and `refuel` hands out -1 so that every check calls it: the work between two calls of `refuel` is what ran
// between two checks, which the walker promises is at most UNCHECKED_MAX + 100 (the heaviest single instruction).
// Calls are left out: a chain of returns may add that much per frame (docs/sandbox-instrumentation.md, limits).
// More modules with
//   WASMHOOKS_BOUND_MODULES=5000 npx vitest run test/sandbox/instrument.bound-fuzz.test.ts
import { describe, expect, it } from 'vitest';
import { UNCHECKED_MAX } from '../../host/sandbox/instrument/code.js';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { assemble } from './instrument-helpers.js';

const MODULES = Number(process.env.WASMHOOKS_BOUND_MODULES ?? 150);
const BOUND = UNCHECKED_MAX + 100;

type Label = { name: string; kind: 'block' | 'loop' | 'if'; counter?: string; param?: boolean };

/** One random module's source, from `seed` (an LCG: the same module for the same seed). */
function shape(seed: number): string {
  let x = seed >>> 0 || 1;
  const rnd = (n: number): number => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 8) % n;
  let uid = 0;
  // 4 of weight (global.get, i32.const, i32.add, global.set), counted as 4.
  const work = (k: number) => '(global.set $work (i32.add (global.get $work) (i32.const 4)))'.repeat(k);
  const big = () => work([1, 10, 60, 120, 240][rnd(5)]!);
  // The condition's 13 and its consumer's 1 (if, br_if).
  const cond = () =>
    '(block (result i32) (global.set $work (i32.add (global.get $work) (i32.const 14)))' +
    ' (global.set $s (i32.add (i32.mul (global.get $s) (i32.const 1103515245)) (i32.const 12345)))' +
    ' (i32.and (global.get $s) (i32.const 0x10000)))';
  // A back-edge is taken at most twice per entry of its loop (the counter is reset before the loop): 10 + the br_if's 1.
  const guard = (c: string) =>
    `(block (result i32) (global.set $work (i32.add (global.get $work) (i32.const 11))) (i32.lt_u (local.tee ${c} (i32.add (local.get ${c}) (i32.const 1))) (i32.const 3)))`;
  const outward = (labels: Label[]): Label | undefined => {
    const ok = labels.filter((l) => l.kind !== 'loop');
    return ok.length === 0 ? undefined : ok[rnd(ok.length)];
  };

  function list(depth: number, labels: Label[]): string {
    let out = '';
    for (let n = 1 + rnd(4); n > 0; n--) out += statement(depth, labels) + '\n';
    return out;
  }

  function statement(depth: number, labels: Label[]): string {
    switch (rnd(depth > 5 ? 4 : 13)) {
      case 0:
      case 1:
      case 2:
        return big();
      case 3: {
        // A branch forward, to an enclosing block or if.
        const to = outward(labels);
        if (!to) return big();
        const k = rnd(3);
        if (k === 0) return `(br_if ${to.name} ${cond()})`;
        if (k === 1) return `(if ${cond()} (then ${big()} (br ${to.name})))`;
        const targets = Array.from({ length: 1 + rnd(5) }, () => outward(labels)!.name).join(' ');
        return `(if ${cond()} (then (br_table ${targets} ${to.name} (i32.and (global.get $s) (i32.const 7)))))`;
      }
      case 4:
      case 5: {
        const name = `$b${uid++}`;
        return `(block ${name} ${list(depth + 1, [{ name, kind: 'block' }, ...labels])})`;
      }
      case 6:
      case 7: {
        const name = `$i${uid++}`;
        const inner = [{ name, kind: 'if' as const }, ...labels];
        return rnd(2)
          ? `(if ${name} ${cond()} (then ${list(depth + 1, inner)}) (else ${list(depth + 1, inner)}))`
          : `(if ${name} ${cond()} (then ${list(depth + 1, inner)}))`;
      }
      case 8: {
        // A loop: without params (checked at its back-edges) or with one (checked at its header).
        const name = `$l${uid++}`;
        const counter = `$c${depth}`;
        const param = rnd(3) === 0;
        const body = list(depth + 1, [{ name, kind: 'loop', counter, param }, ...labels]);
        const back = param ? `(drop (br_if ${name} (i32.const 7) ${guard(counter)}))` : `(br_if ${name} ${guard(counter)})`;
        return param
          ? `(local.set ${counter} (i32.const 0)) (i32.const 1) (loop ${name} (param i32) (drop) ${body} ${back})`
          : `(local.set ${counter} (i32.const 0)) (loop ${name} ${body} ${back})`;
      }
      case 9:
        return rnd(4) === 0 ? `(if ${cond()} (then ${big()} (return) ${big()}))` : big();
      case 10:
        return rnd(6) === 0 ? `(if ${cond()} (then ${big()} (unreachable) ${big()}))` : big();
      case 11: {
        // A back-edge from any depth to an enclosing loop: br_if, br in an arm, or a br_table mixing it with a block.
        const loops = labels.filter((l) => l.kind === 'loop');
        if (loops.length === 0) return big();
        const loop = loops[rnd(loops.length)]!;
        const g = guard(loop.counter!);
        if (loop.param) return `(drop (br_if ${loop.name} (i32.const 7) ${g}))`;
        const k = rnd(3);
        if (k === 0) return `(br_if ${loop.name} ${g})`;
        if (k === 1) return `(if ${g} (then ${big()} (br ${loop.name})))`;
        const other = outward(labels)?.name ?? loop.name;
        return `(if ${g} (then (br_table ${loop.name} ${other} ${loop.name} (i32.and (global.get $s) (i32.const 3)))))`;
      }
      default:
        return big();
    }
  }

  const locals = Array.from({ length: 8 }, (_, i) => `(local $c${i} i32)`).join(' ');
  return `(module (global $work (export "work") (mut i32) (i32.const 0)) (global $s (mut i32) (i32.const ${seed}))
    (func (export "run") ${locals} ${list(0, [])}))`;
}

/** The most work run between two checks of `run` (and from the last one to its end or trap). */
async function mostBetweenChecks(wasm: Uint8Array<ArrayBuffer>): Promise<{ most: number; checks: number }> {
  const { bytes } = instrument(wasm, { maxMemoryPages: 1 });
  let work: WebAssembly.Global | undefined;
  let last = 0;
  let most = 0;
  let checks = 0;
  const refuel = (): bigint => {
    const now = (work as WebAssembly.Global).value as number;
    most = Math.max(most, now - last);
    last = now;
    checks++;
    return -1n; // never enough: the next check calls refuel again
  };
  const { instance } = await WebAssembly.instantiate(bytes, { 'wasmhooks:sandbox': { refuel, gate: () => 0 } });
  work = instance.exports.work as WebAssembly.Global;
  (instance.exports.__wasmhooks_fuel as WebAssembly.Global).value = -1n;
  try {
    (instance.exports.run as () => void)();
  } catch (error) {
    if (!(error instanceof WebAssembly.RuntimeError)) throw error; // unreachable
  }
  most = Math.max(most, (work.value as number) - last);
  return { most, checks };
}

describe('UNCHECKED_MAX per path, on random control flow', () => {
  it(`${MODULES} modules: never more than UNCHECKED_MAX + 100 of weight between two checks`, { timeout: 120_000 }, async () => {
    let worst = { most: 0, seed: 0 };
    let checks = 0;
    for (let seed = 1; seed <= MODULES; seed++) {
      const result = await mostBetweenChecks(await assemble(shape(seed)));
      checks += result.checks;
      if (result.most > worst.most) worst = { most: result.most, seed };
    }
    expect(worst.most, `seed ${worst.seed}`).toBeLessThanOrEqual(BOUND);
    // The shapes reach the bound (straight lines of up to 960 weight): the oracle is not vacuous.
    expect(worst.most).toBeGreaterThan(UNCHECKED_MAX);
    expect(checks).toBeGreaterThan(MODULES);
  });
});
