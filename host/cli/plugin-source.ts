/** Reading a plugin named on the command line: a file path or an http(s) URL. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { messageOf } from '../errors.js';
import { sha256 } from '../plugins/source.js';
import { CliError } from './exit.js';

export interface PluginBytes {
  bytes: Uint8Array;
  sha256: string;
  /** As the user wrote it. */
  origin: string;
  /** Absolute path, for files. */
  path?: string;
}

export const isUrl = (s: string): boolean => /^https?:\/\//i.test(s);

export async function readPluginBytes(ref: string, cwd: string): Promise<PluginBytes> {
  let bytes: Uint8Array;
  let path: string | undefined;
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
