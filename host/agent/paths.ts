/**
 * Path-like fields of tool inputs (`file_path`, `path`) resolved against the
 * session cwd, so hooks see — and tools get — the absolute path. POSIX-style:
 * Windows drive paths are left as they are.
 */

const PATH_FIELDS: readonly string[] = ['file_path', 'path'];

/** `resolvePath('/work', '../a/./b') === '/a/b'` */
export function resolvePath(cwd: string, p: string): string {
  if (/^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\')) return p;
  const joined = p.startsWith('/') ? p : `${cwd}/${p}`;
  const out: string[] = [];
  for (const seg of joined.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return `/${out.join('/')}`;
}

/** The last segment of a POSIX path (`node:path`'s `basename`, without it). */
export function basename(p: string): string {
  const trimmed = p.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** A `file:` URL for an absolute POSIX path, every segment escaped (`#`, `?`, `%` included). */
export function fileUrl(p: string): URL {
  return new URL(`file://${p.split('/').map(encodeURIComponent).join('/')}`);
}

/** A copy with path fields resolved; the same object when there is nothing to resolve. */
export function resolvePathFields(input: Record<string, unknown>, cwd: string): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const field of PATH_FIELDS) {
    const v = input[field];
    if (typeof v === 'string' && v !== '') {
      const abs = resolvePath(cwd, v);
      if (abs !== v) (out ??= { ...input })[field] = abs;
    }
  }
  return out ?? input;
}

/** The process's cwd on Node, Bun and Deno; `/` where there is none (browsers). */
export function defaultCwd(): string {
  const g = globalThis as { process?: { cwd?: () => string }; Deno?: { cwd?: () => string } };
  try {
    return g.process?.cwd?.() ?? g.Deno?.cwd?.() ?? '/';
  } catch {
    return '/';
  }
}
