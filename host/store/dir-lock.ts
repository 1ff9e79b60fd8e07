/**
 * One process per data directory. The file store keeps its records and
 * leases in memory and rewrites records whole, so a second process (a
 * second `serve` started in the same project, or a second store in one
 * process) would overwrite the first one's updates, miss its sessions, and
 * run prompts on a session the first is running (its lease is invisible
 * there). `sessions/.lock` names the holder (pid and host); a lock whose
 * process is gone (a crash) is taken over. Replicas share sessions through
 * Redis instead.
 *
 * Every step is atomic, so of processes starting together exactly one
 * holds the lock: a lock appears whole (written under a name of its own,
 * then hard-linked into place, which fails if one is there), and a stale
 * lock is removed only by the one process that creates the claim named for
 * that very file (its content and inode). Nobody else removes that file
 * (its holder is gone), so the claimant's "still the same file? remove it"
 * cannot remove a newer lock. A claim is itself a lock: one left by a
 * process that crashed while taking over is taken over the same way.
 */
import { createHash } from 'node:crypto';
import { link, lstat, open, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { WasmhooksError } from '../errors.js';
import { openStoreFile, PRIVATE_FILE } from './jsonl.js';

interface Holder {
  pid: number;
  host: string;
  /** This lock's own name: a release removes only the lock it took. */
  nonce: string;
}

/** What was read of a lock file: its holder (none when cut short) and a name for this very file. */
interface Seen {
  holder: Holder | undefined;
  generation: string;
  mtimeMs: number;
}

/** Attempts before giving up while other processes keep taking the lock or a take-over is under way. */
const ROUNDS = 40;
const WAIT_MS = 25;
/** Claims of claims: each level needs another crash in the middle of a take-over. */
const MAX_DEPTH = 3;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Takes the lock of `dir`; resolves with its release. `STORE_UNAVAILABLE` while a live process holds it. */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, '.lock');
  const me: Holder = { pid: process.pid, host: hostname(), nonce: crypto.randomUUID() };
  const fail = (message: string) => new WasmhooksError('STORE_UNAVAILABLE', `cannot lock the data directory ${dir}: ${message}`);
  // Ours are regular files; anything else at the name (a link, a FIFO, a device) came from elsewhere.
  const kind = await lstat(path).then((info) => (info.isFile() ? 'file' : 'other'), () => 'none');
  if (kind === 'other') throw fail(`${path} is not a regular file (a link, FIFO or device wasmhooks never makes): remove it`);
  const holder = await take(path, me, 0, fail);
  if (holder === 'busy') throw fail(`another process keeps taking ${path}`);
  if (holder !== null) {
    throw new WasmhooksError(
      'STORE_UNAVAILABLE',
      `the data directory ${dir} is in use by process ${holder.pid}${holder.host === me.host ? '' : ` on ${holder.host}`}: ` +
        'one process serves a data directory (start replicas with --store redis:// to share sessions), ' +
        `or remove ${path} if that process is gone`,
    );
  }
  await sweepClaims(dir);
  return async () => {
    // Only our own lock is removed (a crash-recovery takeover may have replaced it).
    if ((await readLock(path))?.holder?.nonce === me.nonce) await rm(path, { force: true });
  };
}

/** A claim on a lock (`.lock.<generation>.claim`), or a claim on such a claim. */
const CLAIM = /^\.lock(?:\.[0-9a-f]{32}\.claim)+$/;
/** A claim that could not be read whole is left alone this long (it may be being written). */
const CUT_SHORT_MS = 60_000;

/**
 * Removes the claims their takers left behind. A process that crashes after
 * replacing a stale lock but before removing its claim leaves the claim named
 * for a lock that no longer exists: nobody would ever look at it again. With
 * the lock held, every claim whose holder is gone is such a leftover.
 */
async function sweepClaims(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!CLAIM.test(name)) continue;
    const path = join(dir, name);
    const seen = await readLock(path);
    if (seen === undefined) continue;
    const gone = seen.holder === undefined ? Date.now() - seen.mtimeMs > CUT_SHORT_MS : !alive(seen.holder);
    if (gone) await rm(path, { force: true });
  }
}

/** Makes `path` ours (null), or names its live holder, or 'busy' when it kept changing hands. */
async function take(path: string, me: Holder, depth: number, fail: (message: string) => Error): Promise<Holder | 'busy' | null> {
  for (let round = 0; round < ROUNDS; round++) {
    if (await create(path, me, fail)) return null;
    const seen = await readLock(path);
    // Released meanwhile: try again.
    if (seen === undefined) continue;
    if (seen.holder !== undefined && alive(seen.holder)) return seen.holder;
    if (depth >= MAX_DEPTH) throw fail(`${path} and the claims on it were left by processes that are gone: remove them`);
    const claim = `${path}.${seen.generation}.claim`;
    const claimant = await take(claim, me, depth + 1, fail);
    if (claimant === null) {
      try {
        // Only this claim's holder removes this file, and its holder is gone: the check cannot go stale.
        if ((await readLock(path))?.generation === seen.generation) await rm(path, { force: true });
        if (await create(path, me, fail)) return null;
      } finally {
        await rm(claim, { force: true });
      }
      continue;
    }
    // Another process is taking it over: once it is done, its lock is read next round.
    await sleep(WAIT_MS);
  }
  return 'busy';
}

/** Creates `path` holding `me`, whole, if there is no such file; false if there is. */
async function create(path: string, me: Holder, fail: (message: string) => Error): Promise<boolean> {
  const text = `${JSON.stringify(me)}\n`;
  const temp = `${path}.${me.nonce}.tmp`;
  try {
    await writeFile(temp, text, { mode: PRIVATE_FILE, flag: 'wx' });
    try {
      await link(temp, path);
      return true;
    } catch (error) {
      // Our temporary file was removed, as the holder's start-up removes crash leftovers (file.ts): someone holds it.
      if ((error as { code?: string }).code === 'ENOENT') return false;
      throw error;
    } finally {
      await rm(temp, { force: true });
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links: create in place (a lock read before it is written counts as stale).
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS' || code === 'EOPNOTSUPP') return createInPlace(path, text, fail);
    throw fail((error as Error).message);
  }
}

async function createInPlace(path: string, text: string, fail: (message: string) => Error): Promise<boolean> {
  try {
    const handle = await open(path, 'wx', PRIVATE_FILE);
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'EEXIST') return false;
    throw fail((error as Error).message);
  }
}

/** The lock file at `path`, or undefined if there is none. Content and inode are read from one open file. */
async function readLock(path: string): Promise<Seen | undefined> {
  let handle;
  try {
    // Not through a link, not a FIFO (it would hang the start) nor a device (`/dev/zero` read until memory ran out).
    handle = await openStoreFile(path, 'read');
  } catch {
    return undefined;
  }
  try {
    const stat = await handle.stat();
    const text = await handle.readFile('utf8');
    const generation = createHash('sha256').update(`${stat.ino}:${stat.mtimeMs}:${text}`).digest('hex').slice(0, 32);
    return { holder: parse(text), generation, mtimeMs: stat.mtimeMs };
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

function parse(text: string): Holder | undefined {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    return typeof value.pid === 'number' && typeof value.host === 'string' ? { pid: value.pid, host: value.host, nonce: String(value.nonce) } : undefined;
  } catch {
    // Cut short by a crash between create and write: nobody holds it.
    return undefined;
  }
}

/** A holder on another host cannot be checked from here: it counts as alive (the message says how to clear it). */
function alive(holder: Holder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}
