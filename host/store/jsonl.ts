/**
 * Append-only JSONL files that survive a crash mid-write: each record is one
 * line ending in `\n`, so a write cut short leaves a last line without its
 * newline (or one that does not parse). Reading drops that torn line and
 * truncates it away, so the next append starts on a clean line.
 */
import { open, readFile, rename, rm, truncate, writeFile, type FileHandle } from 'node:fs/promises';
import { WasmhooksError } from '../errors.js';

/** Mode of every file the stores write (owner read/write only). */
export const PRIVATE_FILE = 0o600;

const encoder = new TextEncoder();
const bytes = (s: string) => encoder.encode(s).length;

export interface JsonlRead<T> {
  records: T[];
  /** Bytes of a torn last line that were dropped (0 when the file was clean). */
  droppedBytes: number;
}

/** Reads every record; a missing file is empty. A bad line other than the last is corruption and throws. */
export async function readJsonl<T>(path: string): Promise<JsonlRead<T>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return { records: [], droppedBytes: 0 };
    throw new WasmhooksError('STORE_UNAVAILABLE', `cannot read ${path}: ${(error as Error).message}`);
  }
  const lines = text.split('\n');
  const tail = lines.pop() ?? '';
  const records: T[] = [];
  let good = 0;
  for (const [i, line] of lines.entries()) {
    try {
      records.push(JSON.parse(line) as T);
      good += bytes(line) + 1;
    } catch {
      if (i === lines.length - 1 && tail === '') {
        // The last complete-looking line is garbage: a torn write whose newline made it to disk first.
        await truncate(path, good);
        return { records, droppedBytes: bytes(line) + 1 };
      }
      throw new WasmhooksError('STORE_UNAVAILABLE', `${path}:${i + 1} is not JSON (the file was changed by something other than wasmhooks); move it aside to continue`);
    }
  }
  if (tail !== '') await truncate(path, good);
  return { records, droppedBytes: bytes(tail) };
}

/** Appends records to an open handle as lines (one write). */
export async function appendJsonl(handle: FileHandle, records: readonly unknown[]): Promise<void> {
  if (records.length === 0) return;
  await handle.write(records.map((r) => `${JSON.stringify(r)}\n`).join(''));
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
