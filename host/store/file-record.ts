/**
 * A data directory's session record on disk: the file name a session id may
 * take, and reading a record back (`file.ts` writes them).
 */
import { WasmhooksError } from '../errors.js';
import { isRecord } from '../json.js';
import { openStoreFile } from './jsonl.js';
import { TRANSCRIPT_LIMITS, type SessionRecord } from './types.js';

/** Ids become file names: no separators, no leading dot (so never `..` or a hidden file). */
const SAFE_ID = /^[A-Za-z0-9_:-][A-Za-z0-9._:-]{0,127}$/;

export function checked(id: string): string {
  if (!SAFE_ID.test(id)) throw new WasmhooksError('INVALID_OPTIONS', `session id ${JSON.stringify(id.slice(0, 40))} cannot name a file: use letters, digits and . _ : - (not first)`);
  return id;
}

/**
 * One session record. Records are replaced atomically, so one that does not
 * read is outside damage: it is refused (naming the file), never truncated
 * or skipped, so the operator can look at it and nothing is lost silently.
 */
export async function readRecord(path: string): Promise<SessionRecord> {
  let text: string;
  try {
    const handle = await openStoreFile(path, 'read');
    try {
      // Every record is read at open: one of several GB (a data directory that came with a cloned repository) took
      // the process's memory before the server started. A record holds options and a result, within the transcript's cap.
      const { size } = await handle.stat();
      if (size > TRANSCRIPT_LIMITS.maxBytes) throw new Error(`it is ${size} bytes, over the ${TRANSCRIPT_LIMITS.maxBytes} a session record may hold; move it aside to continue`);
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new WasmhooksError('STORE_UNAVAILABLE', `cannot read ${path}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const r = value as Partial<SessionRecord> | undefined;
  if (!isRecord(r) || typeof r.id !== 'string' || typeof r.createdAt !== 'number' || typeof r.prompts !== 'number' || !isRecord(r.options)) {
    throw new WasmhooksError('STORE_UNAVAILABLE', `${path} is not a session record (damaged outside wasmhooks?); move it aside to continue`);
  }
  return r as SessionRecord;
}
