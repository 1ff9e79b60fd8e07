/**
 * Walking the workspace for Glob and Grep: symlinks are listed but never
 * followed (a link to `/` cannot make a walk leave the workspace), `.git`
 * is skipped, and one walk visits at most `maxEntries` entries.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { RE2JS } from 're2js';

const SKIPPED = new Set(['.git']);

export interface WalkResult {
  /** Paths relative to the start, `/`-separated, files only. */
  files: string[];
  /** The walk stopped at the entry cap. */
  truncated: boolean;
}

export async function walkFiles(start: string, maxEntries: number, signal?: AbortSignal): Promise<WalkResult> {
  const files: string[] = [];
  const pending: string[] = [''];
  let visited = 0;
  while (pending.length > 0) {
    signal?.throwIfAborted();
    const rel = pending.shift()!;
    let entries;
    try {
      entries = await readdir(join(start, rel), { withFileTypes: true });
    } catch {
      continue; // unreadable folder: skip it, as find(1) would report and go on
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (++visited > maxEntries) return { files, truncated: true };
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) pending.push(path);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        files.push(path);
      }
    }
  }
  return { files, truncated: false };
}

/**
 * A glob as a (linear-time) matcher on `/`-separated relative paths: `**` any number of
 * folders, `*` and `?` within one name, `[abc]` classes, `{a,b}` choices.
 * A pattern without `/` matches the file name at any depth (`*.ts`).
 */
export function globMatcher(glob: string): (path: string) => boolean {
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        out += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) out += '\\[';
      else {
        const body = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
        out += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) out += '|';
    else out += c.replace(/[.+^$()|\\\]{}]/g, '\\$&');
  }
  out += ')'.repeat(braces);
  // RE2 (linear time): the pattern comes from the model.
  const re = RE2JS.compile(glob.includes('/') ? out : `(?:.*/)?${out}`);
  return (path) => re.matches(path);
}
