/**
 * Reading a session's rows back from Redis: a row or entry that does not read (another version, a hand
 * edit, another program's key) is STORE_UNAVAILABLE naming its key, never a SyntaxError reported as Redis
 * being unreachable (redis.ts).
 */
import { WasmhooksError } from '../errors.js';
import { isRecord } from '../json.js';
import type { SessionRecord } from './types.js';

const damaged = (key: string, what: string) =>
  new WasmhooksError('STORE_UNAVAILABLE', `the Redis key ${key} is damaged (${what} is not a JSON object); fix or delete that key`);

export function parseObject(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function readObject(raw: string, key: string, what: string): Record<string, unknown> {
  const value = parseObject(raw);
  if (!value) throw damaged(key, what);
  return value;
}

/**
 * A stored row as a record (undefined: no such session). A row whose fields do not read (another
 * version, a hand edit, another program's key) is STORE_UNAVAILABLE naming its key, never a
 * SyntaxError reported as Redis being unreachable, nor a record of another session (its `id` field
 * differing from its key's).
 */
export function toRecord(row: Record<string, string>, id: string, key: string): SessionRecord | undefined {
  if (!row.id) return undefined;
  if (row.id !== id) throw new WasmhooksError('STORE_UNAVAILABLE', `the Redis key ${key} is damaged (its id field names another session); fix or delete that key`);
  const object = (field: 'options' | 'lastResult') => (row[field] ? readObject(row[field], key, field) : undefined);
  const options = object('options');
  const lastResult = object('lastResult');
  return {
    id: row.id,
    ...(row.title !== undefined ? { title: row.title } : {}),
    createdAt: Number(row.createdAt),
    prompts: Number(row.prompts ?? 0),
    options: (options ?? {}) as SessionRecord['options'],
    ...(lastResult ? { lastResult: lastResult as unknown as SessionRecord['lastResult'] } : {}),
    ...(row.running ? { running: row.running } : {}),
    ...(row.resumeAt ? resumeAtField(row.resumeAt) : {}),
    ...(row.clearedFrom ? { clearedFrom: row.clearedFrom } : {}),
  };
}

/**
 * `resumeAt` is only a hint (resumeAtOf checks its value and ignores a damaged one): a field that does
 * not parse is dropped here, rather than making the session and every list holding it unreadable.
 */
function resumeAtField(raw: string): Pick<SessionRecord, 'resumeAt'> {
  try {
    return { resumeAt: JSON.parse(raw) as SessionRecord['resumeAt'] };
  } catch {
    return {};
  }
}
