/**
 * Reading a plugin named on the command line: a first-party plugin's bare
 * name (`guard-shell`), a file path (`./guard.wasm`) or an http(s) URL.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { messageOf } from '../errors.js';
import { PLUGIN_NAME } from '../plugins/first-party.js';
import { resolveSource } from '../plugins/source.js';
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
  if (isUrl(ref)) {
    let response: Response;
    try {
      response = await fetch(ref);
    } catch (error) {
      throw new CliError(`cannot download ${ref}: ${messageOf(error)}`);
    }
    if (!response.ok) throw new CliError(`cannot download ${ref}: HTTP ${response.status}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  } else {
    path = resolve(cwd, ref);
    try {
      bytes = new Uint8Array(await readFile(path));
    } catch (error) {
      throw new CliError(`cannot read plugin ${ref}: ${messageOf(error)}`);
    }
  }
  return { bytes, sha256: await sha256(bytes), origin: ref, ...(path ? { path } : {}) };
}
