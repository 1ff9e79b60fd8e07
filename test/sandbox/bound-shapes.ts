// Random control flow for the per-path bound of UNCHECKED_MAX (instrument.bound-fuzz.test.ts): one module per
// seed whose `run` adds the weight of everything it runs to an exported `work` global.

type Label = { name: string; kind: 'block' | 'loop' | 'if'; counter?: string; param?: boolean };

/** One random module's source, from `seed` (an LCG: the same module for the same seed). */
export function shape(seed: number): string {
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
