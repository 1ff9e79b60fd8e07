// The published ESM imports unchanged and exposes the public API.
import assert from 'node:assert/strict';
import * as wasmhooks from '../../dist/index.js';

export const scenarios: Record<string, () => Promise<void>> = {
  'the ESM build imports and exposes typed errors': async () => {
    const error = new wasmhooks.WasmhooksError('INVALID_WASM', 'not wasm');
    assert.equal(error.code, 'INVALID_WASM');
    assert.ok(error instanceof Error);
    assert.equal(wasmhooks.DEFAULT_LIMITS.timeoutMs, 100);
  },
};
