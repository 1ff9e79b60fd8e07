/**
 * `wasmhooks plugin keygen | sign | verify`: Ed25519 signatures for plugins
 * (host/plugins/signature.ts). keygen writes a private key file and prints
 * the `trustedKeys` entry; sign writes `<plugin>.wasm.sig`; verify checks a
 * plugin against the config's trusted keys.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { findSignature } from '../../config/trust.js';
import { messageOf } from '../../errors.js';
import { generateSigningKey, privateKeyFileSchema, signPlugin, verifyPluginSignature } from '../../plugins/signature.js';
import { CliError, EXIT, type ExitCode } from '../exit.js';
import type { CliIO } from '../io.js';
import { isUrl, readPluginBytes } from '../plugin-source.js';
import { readConfig } from '../setup.js';

export async function keygenCommand(keyId: string, flags: { out?: string }, io: CliIO): Promise<ExitCode> {
  const { privateKeyFile, publicKey } = await generateSigningKey(keyId);
  const out = resolve(io.cwd, flags.out ?? `${keyId}.key.json`);
  // wx: never overwrite a key; 0600: the private key stays the owner's.
  await writeFile(out, `${JSON.stringify(privateKeyFile, null, 2)}\n`, { flag: 'wx', mode: 0o600 }).catch((error: unknown) => {
    throw new CliError(`cannot write ${out}: ${messageOf(error)}`);
  });
  io.stderr.write(`wrote the private key to ${out} (keep it secret)\n`);
  io.stdout.write(`${JSON.stringify({ trustedKeys: { [keyId]: { publicKey } } }, null, 2)}\n`);
  return EXIT.OK;
}

export async function signCommand(file: string, flags: { key: string; out?: string }, io: CliIO): Promise<ExitCode> {
  let key: unknown;
  try {
    key = JSON.parse(await readFile(resolve(io.cwd, flags.key), 'utf8'));
  } catch (error) {
    throw new CliError(`cannot read the key ${flags.key}: ${messageOf(error)}`, EXIT.USAGE);
  }
  const parsed = privateKeyFileSchema().safeParse(key);
  if (!parsed.success) throw new CliError(`${flags.key} is not a private key file written by wasmhooks plugin keygen`, EXIT.USAGE);
  const path = resolve(io.cwd, file);
  const plugin = await readPluginBytes(path, io.cwd);
  const envelope = await signPlugin(plugin.bytes, parsed.data);
  const out = resolve(io.cwd, flags.out ?? `${file}.sig`);
  await writeFile(out, `${JSON.stringify(envelope, null, 2)}\n`);
  io.stdout.write(`signed ${file} (sha256 ${envelope.sha256}) with ${envelope.keyId} → ${flags.out ?? `${file}.sig`}\n`);
  return EXIT.OK;
}

export async function verifyCommand(ref: string, flags: { config?: string; signature?: string }, io: CliIO): Promise<ExitCode> {
  const config = await readConfig(flags, io);
  const plugin = await readPluginBytes(ref, io.cwd);
  const located = isUrl(ref) ? { url: ref } : { path: plugin.path ?? resolve(io.cwd, ref) };
  const envelope = await findSignature({ ...located, ...(flags.signature ? { signature: resolve(io.cwd, flags.signature) } : {}) }, ref);
  const keyId = await verifyPluginSignature(plugin.bytes, envelope, config?.trustedKeys ?? {}, ref);
  io.stdout.write(`ok: ${ref} (sha256 ${plugin.sha256}) is signed by trusted key ${keyId}\n`);
  return EXIT.OK;
}
