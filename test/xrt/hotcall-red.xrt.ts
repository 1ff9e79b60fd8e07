// Red team of the in-thread fast path on Node, Deno and Bun, against the ESM
// build (test/sandbox/redteam.hotcall.test.ts under vitest): a hostile plugin
// must not see or change another call's bytes, gain fuel across calls, or
// outrun its deadline through the self-checked alloc.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import wabtInit from 'wabt';
import { createSandbox } from '../../dist/index.js';

let wabt: ReturnType<typeof wabtInit> | undefined;

async function hostile(name: string): Promise<Uint8Array> {
  const source = await readFile(new URL(`../fixtures/hostile/${name}.wat`, import.meta.url), 'utf8');
  const mod = (await (wabt ??= wabtInit())).parseWat(`${name}.wat`, source);
  try {
    return mod.toBinary({}).buffer;
  } finally {
    mod.destroy();
  }
}

const text = (s: string) => new TextEncoder().encode(s);
const str = (b: Uint8Array) => new TextDecoder().decode(b);

export const scenarios: Record<string, () => Promise<void>> = {
  'in-thread: an output that is the input block keeps its bytes when later calls of its length run': async () => {
    const mirror = await createSandbox(await hostile('output-is-input'), { name: 'mirror' });
    try {
      const first = await mirror.call('run', text('first'));
      const second = await mirror.call('run', text('other'));
      assert.equal(first.ok && str(first.output), 'first');
      assert.equal(second.ok && str(second.output), 'other');
      const [a, b] = await Promise.all([mirror.call('run', text('aaaa')), mirror.call('run', text('bbbb'))]);
      assert.equal(a.ok && str(a.output), 'aaaa');
      assert.equal(b.ok && str(b.output), 'bbbb');
    } finally {
      await mirror.close();
    }
  },
};
