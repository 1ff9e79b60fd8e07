// Paths whose recursive deletion (or chmod) wrecks the machine or the user's home.

const SYSTEM_DIRS: string[] = [
  "bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "opt", "proc",
  "root", "sbin", "srv", "sys", "usr", "var", "System", "Users", "Library", "Applications",
];

const HOMES: string[] = ["~", "$HOME", "${HOME}"];

function collapseSlashes(path: string): string {
  if (!path.includes("//")) return path;
  let out = "";
  for (let i = 0; i < path.length; i++) {
    const c = path.charAt(i);
    if (c == "/" && out.endsWith("/")) continue;
    out += c;
  }
  return out;
}

/** `/`, `/*`, `~`, `$HOME/*`, `/etc`, `/usr/`, ...: a root, a home or a top-level system folder. */
export function isCriticalPath(target: string): bool {
  let t = collapseSlashes(target);
  // Strip "/*", "/." and "/" suffixes: `/*`, `/.` and `//` all mean the root.
  while (t.endsWith("/*") || t.endsWith("/.")) t = t.substring(0, t.length - 2);
  while (t.length > 1 && t.endsWith("/")) t = t.substring(0, t.length - 1);
  if (t == "/" || t == "") return true;
  for (let i = 0; i < HOMES.length; i++) if (t == HOMES[i]) return true;
  if (!t.startsWith("/")) return false;
  const rest = t.substring(1);
  for (let i = 0; i < SYSTEM_DIRS.length; i++) if (rest == SYSTEM_DIRS[i]) return true;
  return false;
}

const SAFE_DEVICES: string[] = ["/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/random", "/dev/urandom"];

/** A device node other than the harmless ones (`/dev/sda`, `/dev/nvme0n1`, `/dev/mapper/x`). */
export function isDiskDevice(path: string): bool {
  if (!path.startsWith("/dev/")) return false;
  if (path.startsWith("/dev/fd/") || path.startsWith("/dev/pts/")) return false;
  for (let i = 0; i < SAFE_DEVICES.length; i++) if (path == SAFE_DEVICES[i]) return false;
  return true;
}
