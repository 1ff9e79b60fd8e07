/**
 * Reading a plugin named on the command line: a first-party plugin's bare
 * name (`guard-shell`), a file path (`./guard.wasm`) or an http(s) URL.
 */
import { resolve } from 'node:path';
import { messageOf } from '../errors.js';
import { PLUGIN_NAME } from '../plugins/first-party.js';
import { fetchWithin, MAX_DOWNLOAD_BYTES, readFileCapped, resolveSource } from '../plugins/source.js';
import { sha256 } from '../sandbox/digest.js';
import { CliError } from './exit.js';

export interface PluginBytes {
  bytes: Uint8Array;
  sha256: string;
  /** As the user wrote it. */
  origin: string;
  /** Absolute path, for files. */
  path?: string;
  /** A first-party plugin whose bytes matched the package's pin. */
  pinned?: true;
}

export const isUrl = (s: string): boolean => /^https?:\/\//i.test(s);

/** A bare name (no `/`, no `.wasm`) is a first-party plugin; write `./name` for a file of that name. */
export const isFirstPartyName = (ref: string): boolean => PLUGIN_NAME.test(ref) && !ref.endsWith('.wasm');

/** The loader's source for a command-line plugin reference. */
export function sourceOf(ref: string, cwd: string): { name: string } | { path: string } {
  if (isFirstPartyName(ref)) return { name: ref };
  if (isUrl(ref)) throw new CliError(`${ref}: a plugin from a URL needs a sha256 pin; put it in wasmhooks.json as { "url": …, "sha256": … }`);
  return { path: resolve(cwd, ref) };
}

export async function readPluginBytes(ref: string, cwd: string): Promise<PluginBytes> {
  let bytes: Uint8Array;
  let path: string | undefined;
  if (isFirstPartyName(ref)) {
    // Verified against the package's pin on the way in.
    const resolved = await resolveSource({ name: ref }).catch((error: unknown) => {
      throw new CliError(messageOf(error));
    });
    return { bytes: resolved.bytes, sha256: resolved.sha256, origin: ref, pinned: true };
  }
  // The loader's readers, with its cap and deadline: `plugin add`, `inspect`, `verify` and `replay` read a URL a
  // stranger serves (it streamed without end, held in memory until the process ran out) or a path in a cloned
  // repository (a FIFO hung the command; a link to /dev/zero was read until memory ran out).
  const tooLarge = () => new CliError(`cannot read plugin ${ref}: it is larger than the ${MAX_DOWNLOAD_BYTES}-byte limit`);
  if (isUrl(ref)) {
    let read: Uint8Array | undefined;
    try {
      const download = await fetchWithin(ref, `plugin ${ref}`);
      if (!download.response.ok) {
        await download.response.body?.cancel().catch(() => {});
        throw new CliError(`cannot download ${ref}: HTTP ${download.response.status}`);
      }
      read = await download.read(MAX_DOWNLOAD_BYTES);
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError(messageOf(error));
    }
    if (!read) throw tooLarge();
    bytes = read;
  } else {
    path = resolve(cwd, ref);
    let read: Uint8Array | undefined;
    try {
      read = await readFileCapped(path, MAX_DOWNLOAD_BYTES);
    } catch (error) {
      throw new CliError(`cannot read plugin ${ref}: ${messageOf(error)}`);
    }
    if (!read) throw tooLarge();
    bytes = read;
  }
  return { bytes, sha256: await sha256(bytes), origin: ref, ...(path ? { path } : {}) };
}
