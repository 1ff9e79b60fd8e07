// Lexical path handling. A wasm guard cannot see the file system, so this is
// all string work: no symlinks are followed (see the README for why that is
// the tool's or the host's job).

/**
 * `normalize("/work", "../a//./b/")` → `"/a/b"`: joins a relative path to
 * `cwd`, then drops `.`, empty segments and each `..` with the segment before
 * it. `..` above the root stays at the root, as the kernel does.
 */
export function normalize(cwd: string, path: string): string {
  const joined = path.startsWith("/") ? path : cwd + "/" + path;
  const parts = joined.split("/");
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const seg = parts[i];
    if (seg.length == 0 || seg == ".") continue;
    if (seg == "..") {
      if (out.length > 0) out.pop();
      continue;
    }
    out.push(seg);
  }
  return "/" + out.join("/");
}

/** Does `path` (normalised) equal `root` (normalised) or lie below it? */
export function isWithin(root: string, path: string): bool {
  if (root == "/") return true;
  return path == root || path.startsWith(root + "/");
}

/** Does the raw path have a `..` segment (`../x`, `a/../../b`, `..`)? */
export function hasDotDot(path: string): bool {
  const parts = path.split("/");
  for (let i = 0; i < parts.length; i++) if (parts[i] == "..") return true;
  return false;
}

/** The literal directory part of a glob pattern: the segments before the first one with `*?[{`. */
export function globBase(pattern: string): string {
  const parts = pattern.split("/");
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const seg = parts[i];
    if (hasGlobChar(seg)) break;
    out.push(seg);
  }
  const base = out.join("/");
  return base.length == 0 && pattern.startsWith("/") ? "/" : base;
}

function hasGlobChar(s: string): bool {
  for (let i = 0; i < s.length; i++) {
    const c = s.charAt(i);
    if (c == "*" || c == "?" || c == "[" || c == "{") return true;
  }
  return false;
}
