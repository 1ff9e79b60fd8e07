/**
 * Who else could change where the file store writes. Transcripts and records are opened by path, so a
 * user who can rename a directory on the way to `sessions/` (one writable by others, without the sticky
 * bit, or owned by them) can swap in a `sessions/` of their own, full of symbolic links named like
 * transcripts: the server's next append then writes the conversation into whatever file of the server's
 * user a link points at (`~/.bashrc`), and its records and lock land where that user reads them. Checked
 * once at open, as ssh checks a key file's path: every directory from the root to `sessions/` is owned by
 * this user or root and not writable by others (sticky directories such as /tmp aside), and `sessions/`
 * itself is a real directory of this user's. Group-writable directories are allowed (user-private groups
 * with umask 002 are common); not checked where the platform has no user ids (Windows).
 */
import { lstat, realpath, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import process from 'node:process';
import { WasmhooksError } from '../errors.js';

const OTHERS_WRITE = 0o002;
const STICKY = 0o1000;

/** Throws STORE_UNAVAILABLE when another user could redirect writes under `sessions` (an existing directory). */
export async function checkOwnPath(sessions: string): Promise<void> {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (uid === undefined || process.platform === 'win32') return;
  const refuse = (message: string) =>
    new WasmhooksError('STORE_UNAVAILABLE', `the data directory ${dirname(sessions)} is not safe to write: ${message}`);
  const own = await lstat(sessions);
  if (own.isSymbolicLink() || !own.isDirectory()) throw refuse(`${sessions} is a symbolic link or not a directory; remove it`);
  if (own.uid !== uid) throw refuse(`${sessions} belongs to user ${own.uid}, not this process's user (${uid})`);
  // The real path's ancestors: a symbolic link on the way (a project dir linked elsewhere) is fine, what it leads through is checked.
  let dir = dirname(await realpath(sessions));
  for (;;) {
    const s = await stat(dir);
    if (s.uid !== uid && s.uid !== 0) throw refuse(`${dir} belongs to user ${s.uid}, who could swap the directories under it`);
    if ((s.mode & OTHERS_WRITE) !== 0 && (s.mode & STICKY) === 0) {
      throw refuse(`${dir} is writable by every user (mode ${(s.mode & 0o7777).toString(8)}), who could swap the directories under it; chmod o-w it or choose another --data-dir`);
    }
    const up = dirname(dir);
    if (up === dir) return;
    dir = up;
  }
}
