/**
 * Plugin signatures: Ed25519 over the plugin's sha256, with WebCrypto (the
 * same code on Node, Deno and Bun). A signature travels beside the plugin as
 * `<plugin>.wasm.sig`, a small JSON envelope naming the key that made it;
 * the operator lists the keys they trust (id → public key, optional expiry)
 * in wasmhooks.json, and `requireSignature` refuses anything else.
 */
import { z } from 'zod';
import { WasmhooksError } from '../errors.js';
import { lazy } from '../lazy.js';
import { sha256 } from '../sandbox/digest.js';

const SIGNATURE_FORMAT = 'wasmhooks-signature-v1';
const KEY_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
// Built at first use (see lazy.ts): only signed plugins and config files with keys need them.
const schemas = lazy(() => {
  const base64 = z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64');

  /** The `.sig` file. */
  const signatureEnvelope = z
    .object({
      format: z.literal(SIGNATURE_FORMAT),
      keyId: z.string().regex(KEY_ID),
      algorithm: z.literal('Ed25519'),
      /** The digest that was signed (informative: verification recomputes it from the bytes). */
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      signature: base64,
    })
    .strict();

  /** One trusted key: the raw 32-byte Ed25519 public key in base64, and when it stops being trusted. */
  const trustedKey = z
    .object({
      publicKey: base64.describe('Raw Ed25519 public key (32 bytes), base64, as printed by `wasmhooks plugin keygen`.'),
      expires: z.iso.datetime({ offset: true }).optional().describe('ISO date-time after which signatures by this key are refused.'),
    })
    .strict();
  const trustedKeys = z.record(z.string().regex(KEY_ID, `key ids must match ${KEY_ID.source}`), trustedKey);

  /** A private key as written by `plugin keygen` (keep it secret), with its id. */
  const privateKeyFile = z.object({ keyId: z.string().regex(KEY_ID), privateKey: z.record(z.string(), z.unknown()) }).strict();
  return { signatureEnvelope, trustedKeys, privateKeyFile };
});
type Schemas = ReturnType<typeof schemas>;

export type SignatureEnvelope = z.output<Schemas['signatureEnvelope']>;
/** Trusted keys by id (wasmhooks.json `trustedKeys`). */
export const trustedKeysSchema = (): Schemas['trustedKeys'] => schemas().trustedKeys;
export type TrustedKeys = z.input<Schemas['trustedKeys']>;

/** Why a signature check failed; `SignatureError.reason`. */
export type SignatureFailure = 'unsigned' | 'malformed' | 'unknown-key' | 'expired-key' | 'bad-signature';

/** A plugin refused for its signature (code `SIGNATURE`); `reason` says which check failed. */
export class SignatureError extends WasmhooksError {
  constructor(
    readonly reason: SignatureFailure,
    message: string,
  ) {
    super('SIGNATURE', message);
  }
}

/** A private key as written by `plugin keygen` (keep it secret), with its id. */
export const privateKeyFileSchema = (): Schemas['privateKeyFile'] => schemas().privateKeyFile;
export type PrivateKeyFile = z.output<Schemas['privateKeyFile']>;

const ED25519 = { name: 'Ed25519' } as const;
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** What is signed: the format, the key id and the digest, so a signature cannot be moved to another key's name. */
const message = (keyId: string, digest: string) => new TextEncoder().encode(`${SIGNATURE_FORMAT}\n${keyId}\n${digest}\n`);

/** A new key pair: the private key file to keep, the public key to put in `trustedKeys`. */
export async function generateSigningKey(keyId: string): Promise<{ privateKeyFile: PrivateKeyFile; publicKey: string }> {
  if (!KEY_ID.test(keyId)) throw new WasmhooksError('INVALID_OPTIONS', `key id ${JSON.stringify(keyId)} must match ${KEY_ID.source}`);
  const pair = (await crypto.subtle.generateKey(ED25519, true, ['sign', 'verify'])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as Record<string, unknown>;
  const raw = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer);
  return { privateKeyFile: { keyId, privateKey: jwk }, publicKey: toBase64(raw) };
}

/** Signs plugin bytes with a private key file's key. */
export async function signPlugin(bytes: Uint8Array, key: PrivateKeyFile): Promise<SignatureEnvelope> {
  const parsed = privateKeyFileSchema().safeParse(key);
  if (!parsed.success) throw new WasmhooksError('INVALID_OPTIONS', `not a wasmhooks private key file: ${z.prettifyError(parsed.error)}`);
  let privateKey: CryptoKey;
  try {
    privateKey = await crypto.subtle.importKey('jwk', parsed.data.privateKey as JsonWebKey, ED25519, false, ['sign']);
  } catch (error) {
    throw new WasmhooksError('INVALID_OPTIONS', `the private key of ${parsed.data.keyId} is not an Ed25519 JWK: ${error instanceof Error ? error.message : String(error)}`);
  }
  const digest = await sha256(bytes);
  const signature = new Uint8Array(await crypto.subtle.sign(ED25519, privateKey, message(parsed.data.keyId, digest)));
  return { format: SIGNATURE_FORMAT, keyId: parsed.data.keyId, algorithm: 'Ed25519', sha256: digest, signature: toBase64(signature) };
}

/** Parses a `.sig` file's text; a malformed one is a SignatureError. */
export function parseSignature(text: string, origin: string): SignatureEnvelope {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new SignatureError('malformed', `the signature of ${origin} is not JSON`);
  }
  const parsed = schemas().signatureEnvelope.safeParse(raw);
  if (!parsed.success) throw new SignatureError('malformed', `the signature of ${origin} is malformed: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/**
 * Checks `envelope` against the bytes and the trusted keys; returns the key
 * id, or throws a SignatureError (unsigned, unknown or expired key, a
 * signature that does not verify: a tampered byte, another key).
 */
export async function verifyPluginSignature(
  bytes: Uint8Array,
  envelope: SignatureEnvelope | undefined,
  trusted: TrustedKeys,
  origin: string,
  now: Date = new Date(),
): Promise<string> {
  if (!envelope) throw new SignatureError('unsigned', `plugin ${origin} is not signed (no ${origin}.sig) and requireSignature is on; sign it with wasmhooks plugin sign, or load another plugin`);
  // Own keys only: a key id such as "constructor" or "toString" named Object.prototype's member, and was then
  // reported as the operator's malformed public key (INVALID_CONFIG) instead of an unknown key.
  const key = Object.hasOwn(trusted, envelope.keyId) ? trusted[envelope.keyId] : undefined;
  if (!key) {
    const known = Object.keys(trusted);
    throw new SignatureError('unknown-key', `plugin ${origin} is signed by key "${envelope.keyId}", which is not in trustedKeys (${known.length > 0 ? `trusted: ${known.join(', ')}` : 'none are trusted'})`);
  }
  if (key.expires !== undefined && now.getTime() >= Date.parse(key.expires)) {
    throw new SignatureError('expired-key', `plugin ${origin} is signed by key "${envelope.keyId}", which expired on ${key.expires}; re-sign it with a current key`);
  }
  let publicKey: CryptoKey;
  try {
    const raw = fromBase64(key.publicKey);
    if (raw.length !== 32) throw new Error(`${raw.length} bytes, expected 32`);
    publicKey = await crypto.subtle.importKey('raw', raw, ED25519, false, ['verify']);
  } catch (error) {
    throw new WasmhooksError('INVALID_CONFIG', `trustedKeys.${envelope.keyId}.publicKey is not an Ed25519 public key: ${error instanceof Error ? error.message : String(error)}`);
  }
  const digest = await sha256(bytes);
  let ok = false;
  try {
    ok = await crypto.subtle.verify(ED25519, publicKey, fromBase64(envelope.signature), message(envelope.keyId, digest));
  } catch {
    ok = false;
  }
  if (!ok) {
    throw new SignatureError('bad-signature', `the signature of plugin ${origin} does not verify with key "${envelope.keyId}" (sha256 ${digest}${digest === envelope.sha256 ? '' : `, signed ${envelope.sha256}`}): the file was changed after signing, or another key signed it. Refusing to load it.`);
  }
  return envelope.keyId;
}
