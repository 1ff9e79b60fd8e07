// The plugin pin's digest: node:crypto where the runtime has it (a cold start
// pays less), WebCrypto elsewhere; the two must agree byte for byte.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { sha256, webSha256 } from '../../host/sandbox/digest.js';

describe('sha256 of plugin bytes', () => {
  it('agrees with WebCrypto and with the known digests (empty, "abc", a real plugin)', async () => {
    expect(await sha256(new Uint8Array())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const guard = new Uint8Array(await readFile(new URL('../../plugins/guard-shell/build/guard-shell.wasm', import.meta.url)));
    expect(await sha256(guard)).toBe(await webSha256(guard));
    // A view into a larger buffer hashes only its own bytes.
    const view = guard.subarray(100, 1100);
    expect(await sha256(view)).toBe(await webSha256(view.slice()));
  });
});
