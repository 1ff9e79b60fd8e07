// Signatures (Ed25519 via WebCrypto) and the lock, through the library: sign/verify, a tampered byte,
// a wrong key, an unknown and an expired key id; materializeConfig refusing what the lock or the policy refuses.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants as fsConstants, existsSync, openSync } from 'node:fs';
import { mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { materializeConfig } from '../../host/config/materialize.js';
import { findSignature } from '../../host/config/trust.js';
import { parseConfig } from '../../host/config/load.js';
import { WasmhooksError } from '../../host/errors.js';
import { newGrants, writeLock, type LockFile } from '../../host/plugins/lock.js';
import { generateSigningKey, signPlugin, SignatureError, verifyPluginSignature, type PrivateKeyFile } from '../../host/plugins/signature.js';
import { sha256 } from '../../host/sandbox/digest.js';
import { cannedGuard } from '../cli/helpers.js';

let acme: { privateKeyFile: PrivateKeyFile; publicKey: string };
let other: { privateKeyFile: PrivateKeyFile; publicKey: string };
const plugin = cannedGuard('deny');

beforeAll(async () => {
  acme = await generateSigningKey('acme-2026');
  other = await generateSigningKey('other');
});

async function refusal(promise: Promise<unknown>): Promise<SignatureError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(SignatureError);
  expect((error as SignatureError).code).toBe('SIGNATURE');
  return error as SignatureError;
}

describe('plugin signatures', () => {
  it('a signature by a trusted key verifies and names the key', async () => {
    const envelope = await signPlugin(plugin, acme.privateKeyFile);
    expect(envelope).toMatchObject({ format: 'wasmhooks-signature-v1', keyId: 'acme-2026', algorithm: 'Ed25519', sha256: await sha256(plugin) });
    expect(await verifyPluginSignature(plugin, envelope, { 'acme-2026': { publicKey: acme.publicKey } }, 'p.wasm')).toBe('acme-2026');
  });

  it('refuses a tampered byte, a wrong key, an unknown key id, an expired key, no signature', async () => {
    const envelope = await signPlugin(plugin, acme.privateKeyFile);
    const trusted = { 'acme-2026': { publicKey: acme.publicKey } };
    const tampered = plugin.slice();
    tampered[tampered.length - 1]! ^= 1;
    expect((await refusal(verifyPluginSignature(tampered, envelope, trusted, 'p.wasm'))).reason).toBe('bad-signature');
    // The id says acme-2026 but the trusted key under that id is another one.
    expect((await refusal(verifyPluginSignature(plugin, envelope, { 'acme-2026': { publicKey: other.publicKey } }, 'p.wasm'))).reason).toBe('bad-signature');
    // A signature moved onto another key id does not verify either (the id is signed too).
    expect((await refusal(verifyPluginSignature(plugin, { ...envelope, keyId: 'other' }, { other: { publicKey: acme.publicKey } }, 'p.wasm'))).reason).toBe('bad-signature');
    // Red review (red4): an id naming an Object.prototype member is unknown too (it was INVALID_CONFIG, blaming trustedKeys).
    for (const keyId of ['constructor', 'toString', 'hasOwnProperty']) {
      expect((await refusal(verifyPluginSignature(plugin, { ...envelope, keyId }, { other: { publicKey: other.publicKey } }, 'p.wasm'))).reason).toBe('unknown-key');
    }
    const unknown = await refusal(verifyPluginSignature(plugin, envelope, { other: { publicKey: other.publicKey } }, 'p.wasm'));
    expect([unknown.reason, unknown.message]).toEqual(['unknown-key', expect.stringMatching(/signed by key "acme-2026", which is not in trustedKeys \(trusted: other\)/)]);
    const expired = await refusal(verifyPluginSignature(plugin, envelope, { 'acme-2026': { publicKey: acme.publicKey, expires: '2020-01-01T00:00:00Z' } }, 'p.wasm'));
    expect([expired.reason, expired.message]).toEqual(['expired-key', expect.stringMatching(/expired on 2020-01-01/)]);
    expect((await refusal(verifyPluginSignature(plugin, undefined, trusted, 'p.wasm'))).reason).toBe('unsigned');
    // Not expired yet: accepted.
    expect(await verifyPluginSignature(plugin, envelope, { 'acme-2026': { publicKey: acme.publicKey, expires: '2999-01-01T00:00:00Z' } }, 'p.wasm')).toBe('acme-2026');
  });
});

async function folder(files: Record<string, Uint8Array | string>) {
  const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-trust-'));
  for (const [name, data] of Object.entries(files)) await writeFile(join(dir, name), data);
  return dir;
}

const config = (dir: string, raw: unknown) => parseConfig(raw, { file: join(dir, 'wasmhooks.json'), dir });

async function loadError(dir: string, raw: unknown): Promise<WasmhooksError> {
  const error = await materializeConfig(config(dir, raw)).then(async (parts) => {
    await parts.close();
    return undefined;
  }, (e: unknown) => e);
  expect(error).toBeInstanceOf(WasmhooksError);
  return error as WasmhooksError;
}

const lockOf = async (sha: string, configKeys: string[] = []): Promise<LockFile> => ({
  lockfileVersion: 1,
  plugins: { 'path:g.wasm': { source: 'path:g.wasm', name: 'canned-deny', version: '0.1.0', sha256: sha, grants: { networkHosts: [], filePaths: [], configKeys } } },
});

describe('requireSignature and the lock at load time', () => {
  it('requireSignature refuses an unsigned plugin and a wrongly signed one, loads a well signed one', async () => {
    const dir = await folder({ 'g.wasm': plugin });
    const keys = { 'acme-2026': { publicKey: acme.publicKey } };
    const raw = { requireSignature: true, trustedKeys: keys, plugins: [{ path: 'g.wasm' }] };
    const unsigned = await loadError(dir, raw);
    expect([unsigned.code, (unsigned as SignatureError).reason]).toEqual(['SIGNATURE', 'unsigned']);
    expect(unsigned.message).toMatch(/^wasmhooks.json: plugins\[0\]: plugin .*g.wasm is not signed/);
    await writeFile(join(dir, 'g.wasm.sig'), JSON.stringify(await signPlugin(plugin, other.privateKeyFile)));
    expect((await loadError(dir, raw) as SignatureError).reason).toBe('unknown-key');
    await writeFile(join(dir, 'g.wasm.sig'), JSON.stringify(await signPlugin(plugin, acme.privateKeyFile)));
    const parts = await materializeConfig(config(dir, raw));
    expect(parts.plugins.map((p) => p.name)).toEqual(['canned-deny']);
    await parts.close();
    // A signature present is checked even when not required.
    await writeFile(join(dir, 'g.wasm.sig'), '{"format":"nope"}');
    expect((await loadError(dir, { plugins: [{ path: 'g.wasm' }] }) as SignatureError).reason).toBe('malformed');
  });

  it('the lock: a changed file is refused (INTEGRITY), an entry not in it and grants beyond consent are NOT_CONSENTED', async () => {
    const dir = await folder({ 'g.wasm': plugin });
    await writeLock(join(dir, 'wasmhooks.lock'), await lockOf(await sha256(plugin)));
    const parts = await materializeConfig(config(dir, { plugins: [{ path: 'g.wasm' }] }));
    await parts.close();
    const other = await loadError(dir, { plugins: [{ path: 'g.wasm' }, { name: 'guard-shell' }] });
    expect([other.code, other.message]).toEqual(['NOT_CONSENTED', expect.stringMatching(/plugins\[1\]: name:guard-shell is not in .*wasmhooks.lock/)]);
    const granted = await loadError(dir, { plugins: [{ path: 'g.wasm', grants: { networkHosts: ['evil.example'] } }] });
    expect([granted.code, granted.message]).toEqual(['NOT_CONSENTED', expect.stringMatching(/grants canned-deny network host "evil.example", which wasmhooks.lock does not record as consented/)]);
    const upgraded = cannedGuard('deny', { configKeys: ['token'] });
    await writeFile(join(dir, 'g.wasm'), upgraded);
    const changed = await loadError(dir, { plugins: [{ path: 'g.wasm', grants: { configKeys: ['token'] } }] });
    expect(changed.code).toBe('NOT_CONSENTED'); // the grant is not consented, checked before the bytes
    const swapped = await loadError(dir, { plugins: [{ path: 'g.wasm' }] });
    expect([swapped.code, swapped.message]).toEqual(['INTEGRITY', expect.stringMatching(/does not match its pin/)]);
  });

  // Red review (red4): the signature was checked on one read of the file and the plugin loaded from another.
  // A FIFO answers the two reads with different bytes (as a file swapped between them would): the signed
  // canned-deny, then an unsigned canned-allow, which loaded under requireSignature on the old code.
  it('requireSignature loads exactly the bytes it verified (a file changed between verify and load is refused)', async () => {
    const signed = cannedGuard('deny');
    const evil = cannedGuard('allow');
    const dir = await folder({ 'signed.wasm': signed, 'evil.wasm': evil, 'g.wasm.sig': JSON.stringify(await signPlugin(signed, acme.privateKeyFile)) });
    execFileSync('mkfifo', [join(dir, 'g.wasm')]);
    // Plugin files are opened non-blocking (red10): a FIFO whose writer has not connected yet reads as empty
    // (INVALID_WASM, a refusal that never reaches the swap). So a reader of our own holds the pipe open, the
    // writer's first bytes wait in it, and the load starts once they are there.
    const holder = openSync(join(dir, 'g.wasm'), fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
    const writer = spawn('sh', ['-c', 'cat signed.wasm > g.wasm; : > first-written; sleep 1; cat evil.wasm > g.wasm'], { cwd: dir, stdio: 'ignore' });
    try {
      for (let i = 0; i < 500 && !existsSync(join(dir, 'first-written')); i++) await new Promise((r) => setTimeout(r, 20));
      const raw = { requireSignature: true, trustedKeys: { 'acme-2026': { publicKey: acme.publicKey } }, plugins: [{ path: 'g.wasm' }] };
      const loaded = await materializeConfig(config(dir, raw)).then(async (parts) => {
        const names = parts.plugins.map((p) => p.name);
        await parts.close();
        return names;
      }, (e: unknown) => e);
      expect(loaded).toBeInstanceOf(WasmhooksError);
      expect((loaded as WasmhooksError).code).toBe('INTEGRITY');
    } finally {
      closeSync(holder);
      writer.kill();
    }
  });

  it('a signature beside a plugin path is read capped, from a regular file only (not /dev/zero, not a huge file)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wh-sig-'));
    await symlink('/dev/zero', join(dir, 'zero.wasm.sig'));
    await expect(findSignature({ path: join(dir, 'zero.wasm') }, 'zero.wasm')).rejects.toThrow(/cannot read the signature .*not a regular file/);
    await writeFile(join(dir, 'big.wasm.sig'), new Uint8Array(200 << 10));
    await expect(findSignature({ path: join(dir, 'big.wasm') }, 'big.wasm')).rejects.toThrow(/longer than 65536 bytes/);
    expect(await findSignature({ path: join(dir, 'absent.wasm') }, 'absent.wasm')).toBeUndefined();
  });

  it('newGrants lists what is asked beyond what was consented', () => {
    const none = { networkHosts: [], filePaths: [], configKeys: [] };
    expect(newGrants(none, { networkHosts: ['a.com'], filePaths: ['/data'], configKeys: ['k'] })).toEqual(['network host "a.com"', 'file path "/data"', 'config key "k"']);
    expect(newGrants({ ...none, configKeys: ['k'] }, { ...none, configKeys: ['k'] })).toEqual([]);
    // Linear (red4): 40,000 against 40,000 took 4 s with Array.includes.
    const keys = Array.from({ length: 40_000 }, (_, i) => `k${i}`);
    const started = performance.now();
    expect(newGrants({ ...none, configKeys: keys }, { ...none, configKeys: [...keys, 'new'] })).toEqual(['config key "new"']);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
