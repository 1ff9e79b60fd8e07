/**
 * `wasmhooks.lock`: what the operator consented to, per plugin. Written by
 * `wasmhooks plugin add`, read on every load: the plugin's bytes must hash
 * to the locked sha256, and the grants the config gives it must be ones that
 * were consented. An upgrade asking for more is refused until re-consented.
 */
import { z } from 'zod';
import { WasmhooksError, messageOf } from '../errors.js';
import { lazy } from '../lazy.js';
import { readRegularFile } from '../config/read-file.js';

export const LOCK_FILE_NAME = 'wasmhooks.lock';

/** A lock holds a few hundred bytes per plugin; past 4 MiB it is refused unread (one in a cloned repository could be any size). */
const MAX_LOCK_BYTES = 4 << 20;

// Built at the first lock file read (see lazy.ts), not when wasmhooks is imported.
const schemas = lazy(() => {
  const list = z.array(z.string());
  /** Grants as lists: what was consented (plugin-visible file paths). */
  const grantListsSchema = z.object({ networkHosts: list, filePaths: list, configKeys: list }).strict();

  const lockEntrySchema = z
    .object({
      /** Where it came from: `first-party:<name>`, `npm:<package>@<version>`, an https URL, or `path:<file>`. */
      source: z.string().min(1),
      /** From the plugin's describe. */
      name: z.string(),
      version: z.string(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      /** What the operator consented to (the plugin's requested grants when added). */
      grants: grantListsSchema,
      /** The trusted key that signed it, when it was signed. */
      signedBy: z.string().optional(),
    })
    .strict();

  const lockFileSchema = z
    .object({ lockfileVersion: z.literal(1), plugins: z.record(z.string(), lockEntrySchema) })
    .strict();
  return { grantListsSchema, lockFileSchema };
});
type Schemas = ReturnType<typeof schemas>;
export type GrantLists = z.output<Schemas['grantListsSchema']>;
export type LockFile = z.output<Schemas['lockFileSchema']>;

export const emptyLock = (): LockFile => ({ lockfileVersion: 1, plugins: {} });

/** Reads a lock file; undefined when there is none. A malformed one is INVALID_CONFIG. */
export async function readLock(path: string): Promise<LockFile | undefined> {
  let text: string;
  try {
    // The config's own reader: regular files only, opened without blocking, capped. The lock comes with a cloned
    // repository and is read on every load, trusted or not: one that was a FIFO hung `run` and `serve` before
    // anything ran, and a link to /dev/zero was read until the string length ran out (hundreds of MB).
    text = new TextDecoder().decode(await readRegularFile(path, MAX_LOCK_BYTES));
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw new WasmhooksError('INVALID_CONFIG', `cannot read ${path}: ${messageOf(error)}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new WasmhooksError('INVALID_CONFIG', `${path}: not valid JSON: ${messageOf(error)}`);
  }
  const parsed = schemas().lockFileSchema.safeParse(raw);
  if (!parsed.success) throw new WasmhooksError('INVALID_CONFIG', `${path}: not a wasmhooks lock file: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export async function writeLock(path: string, lock: LockFile): Promise<void> {
  const { writeFile } = await import('node:fs/promises');
  const plugins = Object.fromEntries(Object.entries(lock.plugins).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  await writeFile(path, `${JSON.stringify({ lockfileVersion: 1, plugins }, null, 2)}\n`);
}

/** The key of a config plugin entry in the lock: `name:<n>`, `url:<u>` or `path:<relative to the config folder>`. */
export function lockKey(entry: { name?: string | undefined; path?: string | undefined; url?: string | undefined }, configDir: string): string {
  if (entry.name !== undefined) return `name:${entry.name}`;
  if (entry.url !== undefined) return `url:${entry.url}`;
  const path = entry.path ?? '';
  return `path:${path.startsWith('/') ? relativePosix(configDir, path) : path}`;
}

/** `to` relative to the folder `from`, both absolute POSIX paths (`node:path`'s `relative`, without it). */
function relativePosix(from: string, to: string): string {
  const a = from.split('/').filter((s) => s !== '');
  const b = to.split('/').filter((s) => s !== '');
  let same = 0;
  while (same < a.length && same < b.length && a[same] === b[same]) same++;
  return [...a.slice(same).map(() => '..'), ...b.slice(same)].join('/') || '.';
}

/** Config grants (filePaths may map host → plugin path) as lists of what the plugin sees. */
export function grantLists(grants: { networkHosts?: string[] | undefined; filePaths?: string[] | Record<string, string> | undefined; configKeys?: string[] | undefined } | undefined): GrantLists {
  const paths = grants?.filePaths;
  return {
    networkHosts: [...(grants?.networkHosts ?? [])],
    filePaths: paths === undefined ? [] : Array.isArray(paths) ? [...paths] : Object.values(paths),
    configKeys: [...(grants?.configKeys ?? [])],
  };
}

/** What `wanted` has beyond `consented`, each as words (`network host "api.x.com"`); empty when nothing new. */
export function newGrants(consented: GrantLists, wanted: GrantLists): string[] {
  const extra = (kind: keyof GrantLists, label: string) => {
    // A Set: a lock written by hand (or by an old version) may hold long lists; `includes` made this quadratic.
    const known = new Set(consented[kind]);
    return wanted[kind].filter((v) => !known.has(v)).map((v) => `${label} ${JSON.stringify(v)}`);
  };
  return [...extra('networkHosts', 'network host'), ...extra('filePaths', 'file path'), ...extra('configKeys', 'config key')];
}
