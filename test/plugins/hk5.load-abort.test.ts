// hk5: the signal of a plugin load (a POST /plugins whose client left or whose time ran out) ends a large
// module's off-thread validation and instrumentation, not only its download or read: before, the load ran on.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WasmhooksError } from '../../host/errors.js';
import { loadPlugin } from '../../host/plugins/load.js';
import { bigModule } from '../fixtures/big-module.js';

describe('loadPlugin with a signal', () => {
  it('a large module aborted while it is instrumented fails with LOAD_FAILED "aborted"', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'hk5-')), 'big.wasm');
    writeFileSync(path, bigModule(40e6));
    // Aborted once the bytes are read (the read has its own abort, tested elsewhere): a loaded machine can take
    // longer than the first wait to read 40 MB, so a load aborted during its read is tried again, waiting longer.
    let error: unknown;
    for (const wait of [400, 1_500, 4_000]) {
      const controller = new AbortController();
      const loading = loadPlugin({ path, signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, wait));
      controller.abort();
      error = await loading.then(
        () => undefined,
        (e: unknown) => e,
      );
      if (!(error instanceof WasmhooksError && /^cannot read plugin/.test(error.message))) break;
    }
    expect(error).toBeInstanceOf(WasmhooksError);
    expect((error as WasmhooksError).code).toBe('LOAD_FAILED');
    expect((error as WasmhooksError).message).toMatch(/the load was aborted while it was validated and instrumented/);
  }, 60_000);
});
