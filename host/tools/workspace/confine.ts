/**
 * The workspace fence: every path a workspace tool touches is resolved
 * against the root, symlinks followed (realpath), and refused unless the
 * result lies inside the root's own realpath. The tools then act on the
 * resolved path, never on the string the model wrote, so `..`, absolute
 * paths and links pointing out of the workspace all end at the fence.
 */
import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A path outside the workspace (or otherwise unusable); the tool reports it to the model as an error. */
export class OutsideWorkspaceError extends Error {
  override readonly name = 'OutsideWorkspaceError';
}

/** True when `path` (absolute, resolved) is `root` or below it. */
function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

const missing = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/**
 * Resolves `path` (absolute, or relative to `root`) inside the workspace.
 * A path that does not exist yet (a file to write) is checked through its
 * nearest existing ancestor, so a new file under a symlinked folder that
 * leaves the workspace is refused too. `root` must itself be a realpath.
 */
export async function confine(root: string, path: string): Promise<string> {
  if (path.includes('\0')) throw new OutsideWorkspaceError(`path ${JSON.stringify(path)} contains a NUL byte`);
  const wanted = resolve(root, path);
  const tail: string[] = [];
  let probe = wanted;
  for (;;) {
    let real: string;
    try {
      real = await realpath(probe);
    } catch (error) {
      if (!missing(error)) throw error;
      const parent = dirname(probe);
      if (parent === probe) throw new OutsideWorkspaceError(`cannot resolve ${path}`);
      tail.unshift(basename(probe));
      probe = parent;
      continue;
    }
    const full = tail.length > 0 ? join(real, ...tail) : real;
    if (!isWithin(root, full)) {
      throw new OutsideWorkspaceError(
        `${path} resolves to ${full}, outside the workspace ${root}; the workspace tools only reach files below it`,
      );
    }
    return full;
  }
}

/** The workspace root as a realpath (the fence compares realpaths). */
export async function workspaceRoot(dir: string): Promise<string> {
  return realpath(resolve(dir));
}
