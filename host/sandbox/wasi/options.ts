/**
 * The `wasi` option: deny by default. `true` gives a plugin clocks, random
 * bytes and stdout/stderr (as log lines), and nothing else: no arguments, no
 * environment, no files. The object form grants arguments, environment
 * variables and read-only directories, each named explicitly.
 */
import { z } from 'zod';
import { WasmhooksError } from '../../errors.js';
import { issueLines } from '../../config/issues.js';
import { lazy } from '../../lazy.js';
import { snapshotDirectory, type DirNode } from './snapshot.js';

/**
 * @example
 * { wasi: true }
 * { wasi: { args: ['guard', '--strict'], env: { LANG: 'C' }, preopens: { '/rules': './rules' } } }
 */
export type WasiOptions =
  | boolean
  | {
      /** `argv` as the plugin sees it (empty by default: not even a program name). */
      args?: string[];
      /** Environment variables (none by default). */
      env?: Record<string, string>;
      /**
       * Read-only directories, plugin path → host directory. Each is read once,
       * when the plugin loads (regular files and directories; symlinks are
       * skipped), within `MAX_PREOPEN_BYTES` and `MAX_PREOPEN_ENTRIES`.
       */
      preopens?: Record<string, string>;
    };

/** The resolved grant, plain data (it crosses to the sandbox worker as is). */
export interface WasiConfig {
  args: string[];
  /** `KEY=value` strings. */
  env: string[];
  preopens: Array<{ guestPath: string; root: DirNode }>;
}

/** What a WASI grant amounts to, for `plugin inspect`, listings and pins. */
export interface WasiGrant {
  args: string[];
  env: string[];
  /** Plugin path → host directory. */
  preopens: Record<string, string>;
}

const MAX_ARG_BYTES = 64 * 1024;

/** A string the plugin sees as one C string: a NUL would cut it short there. */
const cString = (what: string) =>
  z.string({ error: `expected ${what}` }).refine((s) => !s.includes('\0'), { error: `expected ${what} without NUL` });

/** A record whose keys all pass `ok`; else one issue on the record naming the first that does not (zod's own names no key). */
const keysAre = (ok: (key: string) => boolean, expected: string) => (record: Record<string, unknown>, ctx: z.RefinementCtx) => {
  const bad = Object.keys(record).find((k) => !ok(k));
  if (bad !== undefined) ctx.addIssue({ code: 'custom', message: `expected ${expected}, not ${JSON.stringify(bad)}`, input: record });
};

/** A plugin path: absolute, and no `..` to climb out of the directory it names. */
const guestPath = (p: string) => /^\/[^\0]*$/.test(p) && !p.split('/').includes('..');

/**
 * The `wasi` option, wherever it is written: `loadPlugin`'s `wasi` option, a `wasmhooks.json` plugin's `wasi`
 * (both through plugins/options.ts) and `createSandbox`'s, read again here when the plugin starts. Built at
 * first use (see lazy.ts): a plugin without WASI never needs it.
 */
export const wasiOptionsSchema = lazy(() =>
  z
    .union(
      [
        z.boolean(),
        z
          .object({
            args: z.array(cString('a string'), { error: 'expected an array of strings' }).describe('argv as the plugin sees it (none by default).'),
            env: z
              .record(z.string(), cString('a string'), { error: 'expected an object of variables ({ "NAME": "value" })' })
              .superRefine(keysAre((k) => /^[^=\0]+$/.test(k), 'variable names without "=" or NUL'))
              .describe('Environment variables (none by default).'),
            preopens: z
              .record(z.string(), z.string({ error: 'expected a host directory' }).min(1, { error: 'expected a host directory' }), {
                error: 'expected an object mapping plugin paths to host directories',
              })
              .superRefine(keysAre(guestPath, 'absolute plugin paths (starting with /, without "..") as keys'))
              .describe('Read-only directories: plugin path → host directory (in wasmhooks.json, relative to its folder), read once at load.'),
          })
          .partial()
          .strict(),
      ],
      { error: 'expected true, false or { "args", "env", "preopens" }' },
    )
    .describe('WASI preview1, off by default. true: clocks, random, stdout/stderr as plugin logs, no files, args or env.'),
);

/** The grant a `wasi` option amounts to; null when WASI is off. */
export function wasiGrant(options: WasiOptions | undefined): WasiGrant | null {
  if (!options) return null;
  if (options === true) return { args: [], env: [], preopens: {} };
  return {
    args: options.args ?? [],
    env: Object.entries(options.env ?? {}).map(([k, v]) => `${k}=${v}`),
    preopens: { ...options.preopens },
  };
}

/** Validates a `wasi` option and reads its directories. Throws INVALID_OPTIONS. */
export async function resolveWasi(options: WasiOptions | undefined, name: string): Promise<WasiConfig | null> {
  // Off (absent or false) has nothing to check. Anything else is parsed once per sandbox, so without zod's compiled fast path.
  if (options === undefined || options === null || options === false) return null;
  const parsed = wasiOptionsSchema().safeParse(options, { jitless: true });
  if (!parsed.success) {
    throw new WasmhooksError('INVALID_OPTIONS', `invalid wasi option for ${name}: ${issueLines(parsed.error.issues, options, ['wasi']).join('; ')}`);
  }
  const grant = wasiGrant(parsed.data);
  if (!grant) return null;
  const size = [...grant.args, ...grant.env].reduce((n, s) => n + s.length + 1, 0);
  if (size > MAX_ARG_BYTES) {
    throw new WasmhooksError('INVALID_OPTIONS', `wasi args and env of ${name} are ${size} bytes, more than ${MAX_ARG_BYTES}`);
  }
  const preopens: WasiConfig['preopens'] = [];
  const budget = { entries: 0, bytes: 0 };
  for (const [guest, host] of Object.entries(grant.preopens)) {
    preopens.push({ guestPath: guest.replace(/\/+$/, '') || '/', root: await snapshotDirectory(host, budget, name) });
  }
  return { args: grant.args, env: grant.env, preopens };
}
