// rv15 (review of fix3 item 5): a plugin load's signal stopped its plugin read and download, but not the signature
// check that comes first (`serve`'s POST /plugins): a `.sig` beside the path that is a FIFO whose writer idles held
// the load (and its slot) for the FIFO wait (60 s) after its client left. Its read and the check's read of the plugin
// now take the load's signal. The serve CLI passes it (host/cli/commands/serve.ts).
import { execFileSync } from 'node:child_process';
import { closeSync, constants, copyFileSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { checkSignature } from '../../host/config/trust.js';

it('the signature check stops when the load signal fires, with a .sig that is an idle FIFO', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wasmhooks-rv15-sig-'));
  const wasm = join(dir, 'p.wasm');
  copyFileSync(new URL('../../plugins/calc/build/calc.wasm', import.meta.url), wasm);
  execFileSync('mkfifo', [`${wasm}.sig`]);
  // A writer that is there and sends nothing (our own descriptor, open for reading and writing).
  const writer = openSync(`${wasm}.sig`, constants.O_RDWR | constants.O_NONBLOCK);
  try {
    const started = performance.now();
    const check = checkSignature({ path: wasm }, undefined, { trustedKeys: {}, requireSignature: false, dir } as never, 'POST /plugins', 'follow', undefined, AbortSignal.timeout(200));
    const outcome = await Promise.race([check.then(() => 'loaded', (e: Error) => e.message), new Promise((r) => setTimeout(() => r('still waiting'), 5_000))]);
    expect(outcome).not.toBe('still waiting');
    expect(outcome).not.toBe('loaded');
    expect(performance.now() - started).toBeLessThan(4_000);
  } finally {
    closeSync(writer);
    rmSync(dir, { recursive: true, force: true });
  }
}, 20_000);
