/**
 * One process per data directory. The file store keeps its records and
 * leases in memory and rewrites records whole, so a second process (a
 * second `serve` started in the same project, or a second store in one
 * process) would overwrite the first one's updates, miss its sessions, and
 * run prompts on a session the first is running (its lease is invisible
 * there). `sessions/.lock` names the holder (pid and host); a lock whose
 * process is gone (a crash) is taken over. Replicas share sessions through
 * Redis instead.
 */
import { open, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { WasmhooksError } from '../errors.js';

interface Holder {
  pid: number;
  host: string;
  /** This lock's own name: a release removes only the lock it took. */
  nonce: string;
}

/** Takes the lock of `dir`; resolves with its release. `STORE_UNAVAILABLE` while a live process holds it. */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, '.lock');
  const me: Holder = { pid: process.pid, host: hostname(), nonce: crypto.randomUUID() };
  // Two rounds: a stale lock is removed once, then taken like a free one.
  for (let round = 0; round < 2; round++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      try {
        await handle.writeFile(`${JSON.stringify(me)}\n`);
      } finally {
        await handle.close();
      }
      return async () => {
        // Only our own lock is removed (a crash-recovery takeover may have replaced it).
        if (sameHolder(await readHolder(path), me)) await rm(path, { force: true });
      };
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') {
        throw new WasmhooksError('STORE_UNAVAILABLE', `cannot lock the data directory ${dir}: ${(error as Error).message}`);
      }
    }
    const holder = await readHolder(path);
    if (holder !== undefined && alive(holder)) {
      throw new WasmhooksError(
        'STORE_UNAVAILABLE',
        `the data directory ${dir} is in use by process ${holder.pid}${holder.host === me.host ? '' : ` on ${holder.host}`}: ` +
          'one process serves a data directory (start replicas with --store redis:// to share sessions), ' +
          `or remove ${path} if that process is gone`,
      );
    }
    await rm(path, { force: true });
  }
  throw new WasmhooksError('STORE_UNAVAILABLE', `cannot lock the data directory ${dir}: another process keeps taking ${path}`);
}

async function readHolder(path: string): Promise<Holder | undefined> {
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as Partial<Holder>;
    return typeof value.pid === 'number' && typeof value.host === 'string' ? { pid: value.pid, host: value.host, nonce: String(value.nonce) } : undefined;
  } catch {
    // Missing, or cut short by a crash between create and write: nobody holds it.
    return undefined;
  }
}

const sameHolder = (a: Holder | undefined, b: Holder) => a?.nonce === b.nonce;

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
