/**
 * Loading a configured plugin under the operator's trust settings: the
 * lock (wasmhooks.lock beside the config: locked sha256, consented grants)
 * and signatures (`trustedKeys`, `requireSignature`). First-party plugins by
 * name are pinned by the package itself and need no signature.
 */
import { WasmhooksError, messageOf } from '../errors.js';
import { grantLists, LOCK_FILE_NAME, lockKey, newGrants, readLock, type LockFile } from '../plugins/lock.js';
import type { WasmPlugin } from '../plugins/plugin.js';
import { parseSignature, SignatureError, verifyPluginSignature, type SignatureEnvelope, type TrustedKeys } from '../plugins/signature.js';
import { fetchWithin, isWasm, readFileCapped, resolveSource } from '../plugins/source.js';
import type { ResolvedConfig } from './load.js';
import { loadConfiguredPlugin, type MaterializeOptions } from './entry.js';
import type { PluginEntry } from './schema.js';

export interface TrustContext {
  /** The lock and where it is, when the config has one beside it. */
  lock?: { file: string; data: LockFile };
  trustedKeys: TrustedKeys;
  requireSignature: boolean;
  /** Folder of the config (lock keys are relative to it). */
  dir: string;
}

/** The trust settings of a config (none without one). */
export async function trustContext(config: ResolvedConfig | undefined, cwd: string): Promise<TrustContext> {
  const dir = config && config.file !== '<inline>' ? config.dir : cwd;
  const file = `${dir.replace(/\/+$/, '')}/${LOCK_FILE_NAME}`;
  const data = config && config.file !== '<inline>' ? await readLock(file) : undefined;
  return {
    ...(data ? { lock: { file, data } } : {}),
    trustedKeys: config?.trustedKeys ?? {},
    requireSignature: config?.requireSignature ?? false,
    dir,
  };
}

/** A signature envelope is a few hundred bytes; a longer download is cut off (a server streaming without end). */
const MAX_SIGNATURE_BYTES = 64 << 10;

/** The envelope beside a plugin (`signature`, else `<path or url>.sig`); undefined when there is none. */
export async function findSignature(
  entry: { path?: string | undefined; url?: string | undefined; signature?: string | undefined },
  origin: string,
  redirect: 'follow' | 'error' = 'follow',
  /** The checked IP to connect to (`POST /plugins`: pinned-fetch.ts). */
  address?: string,
  /** Ends the read or download (`POST /plugins`: its client left, its load slot ran out; a `.sig` may be an idle FIFO). */
  signal?: AbortSignal,
): Promise<SignatureEnvelope | undefined> {
  const where = entry.signature ?? (entry.path !== undefined ? `${entry.path}.sig` : entry.url !== undefined ? `${entry.url}.sig` : undefined);
  if (where === undefined) return undefined;
  let text: string;
  if (/^https?:\/\//i.test(where)) {
    const { response, read } = await fetchWithin(where, `the signature ${where}`, undefined, redirect, address, signal);
    if (!response.ok) await response.body?.cancel().catch(() => {});
    if (response.status === 404) return undefined;
    if (!response.ok) throw new WasmhooksError('LOAD_FAILED', `cannot download the signature ${where}: HTTP ${response.status}`);
    const body = await read(MAX_SIGNATURE_BYTES);
    if (!body) throw new SignatureError('malformed', `the signature ${where} is longer than ${MAX_SIGNATURE_BYTES} bytes`);
    text = new TextDecoder().decode(body);
  } else {
    let body: Uint8Array | undefined;
    try {
      // The plugin file's own reader: regular files only, read up to the cap (a `.sig` beside a path
      // given over HTTP may be anything: /dev/zero, a huge file).
      body = await readFileCapped(where, MAX_SIGNATURE_BYTES, signal);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT' && entry.signature === undefined) return undefined;
      throw new WasmhooksError('LOAD_FAILED', `cannot read the signature ${where}: ${messageOf(error)}`);
    }
    if (!body) throw new SignatureError('malformed', `the signature ${where} is longer than ${MAX_SIGNATURE_BYTES} bytes`);
    text = new TextDecoder().decode(body);
  }
  return parseSignature(text, origin);
}

/**
 * Checks a plugin's signature if one is required or present; returns the
 * key id that signed it and the sha256 of the bytes it verified, or
 * undefined for an unsigned plugin that may load.
 *
 * The caller must load with that sha256 as the pin: the file is read again
 * to load it, and what was verified is these bytes, not the path. Without the
 * pin, a file swapped between the two reads (or a FIFO that answers twice)
 * loaded unsigned code under requireSignature.
 */
export async function checkSignature(
  entry: PluginEntry,
  pin: string | undefined,
  trust: TrustContext,
  where: string,
  /** `error` for loads asked for over HTTP: neither the plugin nor its signature may redirect (server/plugin-url.ts). */
  redirect: 'follow' | 'error' = 'follow',
  /** The IP `POST /plugins` checked: every download of this load connects there (pinned-fetch.ts). */
  address?: string,
  /** Ends every read and download of the check (`POST /plugins`: the load's signal). */
  signal?: AbortSignal,
): Promise<{ keyId: string; sha256: string } | undefined> {
  if (entry.name !== undefined) return undefined; // first-party: the package's pin is the trust anchor
  const origin = entry.path ?? entry.url ?? where;
  const envelope = await findSignature(entry, origin, redirect, address, signal);
  if (!envelope && !trust.requireSignature) return undefined;
  const stop = signal ? { signal } : {};
  const source = entry.path !== undefined ? { path: entry.path, ...stop } : { url: entry.url!, sha256: pin ?? entry.sha256!, redirect, ...(address !== undefined ? { address } : {}), ...stop };
  const { bytes, sha256 } = await resolveSource(pin ? { ...source, sha256: pin } : source);
  // A file that is no wasm is refused before the signature check, whose failure tells the bytes' sha256: the path
  // may name any file on the server (`POST /plugins`), and its digest would be its content to a guesser (rv9).
  if (entry.path !== undefined && !isWasm(bytes)) {
    throw new WasmhooksError('INVALID_WASM', `plugin ${origin} is not a WebAssembly module (it does not start with 00 61 73 6d). Point at the built .wasm file.`);
  }
  return { keyId: await verifyPluginSignature(bytes, envelope, trust.trustedKeys, origin), sha256 };
}

/**
 * Loads a plugin entry after the lock and signature checks. `locked` is
 * false for plugins that are not config entries (`--plugin`, the CLI's
 * default guards): the lock does not list them, signatures still apply.
 */
export async function loadTrustedPlugin(entry: PluginEntry, where: string, trust: TrustContext, locked = true, options: MaterializeOptions = {}): Promise<WasmPlugin> {
  let pin = entry.sha256?.toLowerCase();
  const locking = locked && trust.lock ? trust.lock : undefined;
  const key = lockKey(entry, trust.dir);
  const locks = locking?.data.plugins[key];
  if (locking) {
    if (!locks) {
      throw new WasmhooksError('NOT_CONSENTED', `${where}: ${key} is not in ${locking.file}; add it with wasmhooks plugin add (which records its sha256 and the grants you consent to)`);
    }
    if (pin && pin !== locks.sha256) {
      throw new WasmhooksError('INTEGRITY', `${where}: the config pins sha256 ${pin} but ${LOCK_FILE_NAME} locks ${locks.sha256}; run wasmhooks plugin add again to upgrade`);
    }
    pin = locks.sha256;
    const extra = newGrants(locks.grants, grantLists(entry.grants));
    if (extra.length > 0) {
      throw new WasmhooksError('NOT_CONSENTED', `${where}: the config grants ${locks.name} ${extra.join(', ')}, which ${LOCK_FILE_NAME} does not record as consented; re-consent with wasmhooks plugin add --accept-grants`);
    }
  }
  const signed = await checkSignature(entry, pin, trust, where).catch((error: unknown) => {
    if (error instanceof WasmhooksError) error.message = `${where}: ${error.message}`;
    throw error;
  });
  // Load exactly the bytes whose signature was checked (the file is read again).
  pin ??= signed?.sha256;
  const plugin = await loadConfiguredPlugin(pin ? { ...entry, sha256: pin } : entry, where, options);
  if (locks) {
    // The bytes match the lock, so this only fails if the lock was edited by hand; check anyway.
    const extra = newGrants(locks.grants, grantLists(plugin.info.grants));
    if (extra.length > 0) {
      await plugin.close();
      throw new WasmhooksError('NOT_CONSENTED', `${where}: ${plugin.info.name} asks for ${extra.join(', ')}, beyond what ${LOCK_FILE_NAME} records as consented`);
    }
  }
  return plugin;
}
