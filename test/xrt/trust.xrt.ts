// Plugin trust on Node, Deno and Bun: Ed25519 signatures through WebCrypto (library), and the built CLI's
// plugin add → wasmhooks.lock → run refusing a changed file, plugin sign/verify refusing a tampered byte.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSigningKey, signPlugin, SignatureError, verifyPluginSignature } from '../../dist/index.js';
import { runCli } from './cli-run.ts';

const guard = fileURLToPath(new URL('../../plugins/secret-redactor/build/secret-redactor.wasm', import.meta.url));

const run = runCli;

const reasonOf = (p: Promise<unknown>) => p.then(() => 'accepted', (e: unknown) => (e instanceof SignatureError ? e.reason : `other: ${String(e)}`));

export const scenarios: Record<string, () => Promise<void>> = {
  'Ed25519 signatures: verify, and refuse a tampered byte, a wrong key, an unknown and an expired key': async () => {
    const bytes = new Uint8Array(await readFile(guard));
    const acme = await generateSigningKey('acme');
    const other = await generateSigningKey('other');
    const envelope = await signPlugin(bytes, acme.privateKeyFile);
    assert.equal(await verifyPluginSignature(bytes, envelope, { acme: { publicKey: acme.publicKey } }, 'g'), 'acme');
    const tampered = bytes.slice();
    tampered[100]! ^= 1;
    assert.equal(await reasonOf(verifyPluginSignature(tampered, envelope, { acme: { publicKey: acme.publicKey } }, 'g')), 'bad-signature');
    assert.equal(await reasonOf(verifyPluginSignature(bytes, envelope, { acme: { publicKey: other.publicKey } }, 'g')), 'bad-signature');
    assert.equal(await reasonOf(verifyPluginSignature(bytes, envelope, { other: { publicKey: other.publicKey } }, 'g')), 'unknown-key');
    assert.equal(await reasonOf(verifyPluginSignature(bytes, envelope, { acme: { publicKey: acme.publicKey, expires: '2001-01-01T00:00:00Z' } }, 'g')), 'expired-key');
  },
  'the CLI: plugin add writes the lock, run refuses a changed file, sign/verify catch a tampered byte': async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-xrt-trust-'));
    await writeFile(join(dir, 'g.wasm'), await readFile(guard));
    await writeFile(join(dir, 'script.json'), JSON.stringify({ turns: [{ text: 'hi' }] }));
    const add = await run(['plugin', 'add', 'g.wasm', '--accept-grants'], dir);
    assert.equal(add.code, 0, add.stderr);
    const lock = JSON.parse(await readFile(join(dir, 'wasmhooks.lock'), 'utf8')) as { plugins: Record<string, { name: string }> };
    assert.equal(lock.plugins['path:g.wasm']?.name, 'secret-redactor');
    const quiet = ['--script', 'script.json', '--no-tools', '--no-default-guards'];
    const ok = await run(['run', 'x', ...quiet], dir);
    assert.equal(ok.code, 0, ok.stderr);

    const keygen = await run(['plugin', 'keygen', 'acme'], dir);
    assert.equal(keygen.code, 0, keygen.stderr);
    const config = JSON.parse(await readFile(join(dir, 'wasmhooks.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(dir, 'wasmhooks.json'), JSON.stringify({ ...config, ...(JSON.parse(keygen.stdout) as object), requireSignature: true }));
    assert.match((await run(['run', 'x', ...quiet], dir)).stderr, /is not signed .*\[SIGNATURE\]/);
    assert.equal((await run(['plugin', 'sign', 'g.wasm', '--key', 'acme.key.json'], dir)).code, 0);
    assert.match((await run(['plugin', 'verify', 'g.wasm'], dir)).stdout, /signed by trusted key acme/);
    assert.equal((await run(['run', 'x', ...quiet], dir)).code, 0);

    const bytes = new Uint8Array(await readFile(join(dir, 'g.wasm')));
    bytes[100]! ^= 1;
    await writeFile(join(dir, 'g.wasm'), bytes);
    assert.match((await run(['plugin', 'verify', 'g.wasm'], dir)).stderr, /does not verify with key "acme"/);
    const refused = await run(['run', 'x', ...quiet], dir);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /\[(SIGNATURE|INTEGRITY)\]/);
  },
};
