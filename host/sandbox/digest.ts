/**
 * sha256 of wasm bytes, lowercase hex: the pin of a plugin source and the key
 * of the compiled-module cache.
 */

/** A sha256 pin as a person writes it: 64 hex characters, either case (compared lower-cased); no regex flag, so the published JSON schema says the same. */
export const SHA256_PIN = /^[0-9a-fA-F]{64}$/;
/** The pin's rule, for messages. */
export const SHA256_PIN_RULE = 'a sha256 digest (64 hex characters)';

type CreateHash = (algorithm: 'sha256') => { update(data: Uint8Array): { digest(encoding: 'hex'): string } };
let createHash: Promise<CreateHash | null> | undefined;

/**
 * With `node:crypto` where the runtime has it (Node, Deno, Bun): on Node the
 * first WebCrypto digest of a process costs ~10 ms (its implementation loads
 * then), a tenth of a cold start. WebCrypto elsewhere; both give the same
 * digest (test/plugins/sha256.test.ts).
 */
export async function sha256(bytes: Uint8Array): Promise<string> {
  const hash = await (createHash ??= import('node:crypto').then((m) => m.createHash as CreateHash, () => null));
  if (hash) return hash('sha256').update(bytes).digest('hex');
  return webSha256(bytes);
}

/** The WebCrypto digest (any runtime, a browser too). */
export async function webSha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
