/**
 * Append-only JSONL files that survive a crash mid-write: each record is one
 * line ending in `\n`, so a write cut short leaves a last line without its
 * newline (or one that does not parse). Reading drops that torn line and
 * truncates it away, so the next append starts on a clean line.
 */
import { constants } from 'node:fs';
import { open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { WasmhooksError } from '../errors.js';
import { LineLimitError, readLines, type LineLimits } from '../lines.js';
import { TRANSCRIPT_LIMITS } from './types.js';

/** Mode of every file the stores write (owner read/write only). */
export const PRIVATE_FILE = 0o600;

/**
 * Opens a store file only when it is a regular file at that very name: never through a symbolic link
 * (O_NOFOLLOW), never waiting on a FIFO (O_NONBLOCK, then refused). A data directory can come with a
 * cloned repository (`.wasmhooks/` under the working directory): a `sessions/<id>.jsonl` that is a link
 * to one of the user's files was read as that session's conversation, appended to, and truncated to its
 * last JSON line (a one-line file without a newline was emptied); a FIFO there hung every read.
 */
export async function openStoreFile(path: string, how: 'read' | 'append'): Promise<FileHandle> {
  const base = how === 'read' ? constants.O_RDONLY : constants.O_RDWR | constants.O_APPEND | constants.O_CREAT;
  const handle = await open(path, base | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0), PRIVATE_FILE);
  const info = await handle.stat().catch(async (error: unknown) => {
    await handle.close();
    throw error;
  });
  if (!info.isFile()) {
    await handle.close();
    throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTREG' });
  }
  return handle;
}

export interface JsonlRead<T> {
  records: T[];
  /** Bytes of a torn last line that were dropped (0 when the file was clean). */
  droppedBytes: number;
  /** Bytes of the records kept (their lines, newlines included). */
  bytes: number;
}

/**
 * Reads every record, a line at a time within `limits`; a missing file is empty. A bad line other than the last is
 * corruption and throws; so does a file past a limit (naming the file and the line), and nothing is truncated then.
 */
export async function readJsonl<T>(path: string, limits: LineLimits = TRANSCRIPT_LIMITS): Promise<JsonlRead<T>> {
  let handle: FileHandle;
  try {
    handle = await openStoreFile(path, 'read');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return { records: [], droppedBytes: 0, bytes: 0 };
    throw new WasmhooksError('STORE_UNAVAILABLE', `cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    return await parseLines<T>(path, handle, limits);
  } catch (error) {
    if (error instanceof WasmhooksError) throw error;
    if (error instanceof LineLimitError) {
      const where = error.line > 0 ? `${path}:${error.line}` : path;
      throw new WasmhooksError('STORE_UNAVAILABLE', `${where}: the transcript ${error.message} (a file store's limit, maxTranscriptBytes/maxTranscriptLineBytes/maxTranscriptLines); nothing was loaded, move it aside or raise the limit`);
    }
    throw new WasmhooksError('STORE_UNAVAILABLE', `cannot read ${path}: ${(error as Error).message}`);
  } finally {
    await handle.close();
  }
}

/** The records of the file behind `handle`; a torn last line is cut off through `handle` (the file just read, not whatever the name points to now). */
async function parseLines<T>(path: string, handle: FileHandle, limits: LineLimits): Promise<JsonlRead<T>> {
  const truncate = async (size: number) => {
    // Read-only handle: reopen by name, again refusing a link, and check it is still the same file.
    const writable = await openStoreFile(path, 'append');
    try {
      const [a, b] = await Promise.all([handle.stat(), writable.stat()]);
      if (a.ino !== b.ino || a.dev !== b.dev) throw new WasmhooksError('STORE_UNAVAILABLE', `${path} was replaced while it was read; retry`);
      await writable.truncate(size);
    } finally {
      await writable.close();
    }
  };
  const records: T[] = [];
  let good = 0;
  /** A complete-looking line that does not parse: a torn write whose newline made it to disk first, if nothing follows it. */
  let bad: { number: number; bytes: number } | undefined;
  const corrupt = (n: number) =>
    new WasmhooksError('STORE_UNAVAILABLE', `${path}:${n} is not JSON (the file was changed by something other than wasmhooks); move it aside to continue`);
  for await (const line of readLines(handle, limits)) {
    if (bad) throw corrupt(bad.number);
    if (!line.ended) {
      await truncate(good);
      return { records, droppedBytes: line.bytes, bytes: good };
    }
    try {
      records.push(JSON.parse(line.text) as T);
      good += line.bytes + 1;
    } catch {
      bad = { number: line.number, bytes: line.bytes };
    }
  }
  if (bad) {
    await truncate(good);
    return { records, droppedBytes: bad.bytes + 1, bytes: good };
  }
  return { records, droppedBytes: 0, bytes: good };
}

/** Appends records to an open handle as lines (one write); returns the characters written. */
export async function appendJsonl(handle: FileHandle, records: readonly unknown[]): Promise<number> {
  if (records.length === 0) return 0;
  const text = records.map((r) => `${JSON.stringify(r)}\n`).join('');
  await handle.write(text);
  return text.length;
}

/** Replaces a file atomically: write a temporary file, fsync it, rename over. */
export async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await writeFile(tmp, text, { mode: PRIVATE_FILE });
    const h = await open(tmp, 'r+');
    try {
      await h.sync();
    } finally {
      await h.close();
    }
    await rename(tmp, path);
  } catch (error) {
    // A disk that filled up mid-write leaves no temporary file behind (a crash does: the next open removes it).
    await rm(tmp, { force: true }).catch(() => {});
    throw error;
  }
}
