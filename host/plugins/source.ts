/**
 * Where plugin bytes come from, normalised into one typed spec, with the
 * integrity pin checked before anything compiles them.
 */
import { z } from 'zod';
import { WasmhooksError, messageOf } from '../errors.js';
import { concatBytes } from '../bytes.js';
import { lazy } from '../lazy.js';
import { readCapped } from '../read-capped.js';
import { sha256, SHA256_PIN, SHA256_PIN_RULE } from '../sandbox/digest.js';
import { PLUGIN_NAME, firstPartyPlugin } from './first-party.js';
import { ipAddressSchema } from './ip-address.js';

/**
 * A plugin source: a first-party plugin by name (pinned by the package), a
 * file path, a URL (which must carry a sha256 pin) or bytes already in memory.
 *
 * @example
 * { name: 'guard-shell' }
 * { path: './plugins/guard-shell/build/guard-shell.wasm' }
 * { url: 'https://example.com/guard.wasm', sha256: 'e3b0c4…' }
 * { url: 'https://example.com/guard.wasm', sha256: 'e3b0c4…', timeoutMs: 10_000 }
 */
export const pluginSourceSchema = lazy(() => {
  // Built at the first load that needs it (see lazy.ts): `import 'wasmhooks'` does not pay for it.
  const sha256Hex = z
    .string()
    .regex(SHA256_PIN, `expected ${SHA256_PIN_RULE}`)
    .transform((s) => s.toLowerCase());
  return z.union([
    z.object({ name: z.string().regex(PLUGIN_NAME, `must match ${PLUGIN_NAME.source}`), sha256: sha256Hex.optional() }).strict(),
    z.object({ path: z.string().min(1), sha256: sha256Hex.optional(), signal: abortSignal.optional() }).strict(),
    z
      .object({
        // http(s) only: Deno's and Bun's fetch read file: URLs too, which would be a path load that skips the path checks.
        url: z.union([z.string().url(), z.instanceof(URL)]).refine((u) => /^https?:$/i.test(new URL(String(u)).protocol), 'must be an http: or https: URL'),
        sha256: sha256Hex,
        /** `error`: a redirect fails the load instead of being followed (loads asked for over HTTP: it could lead anywhere). */
        redirect: z.enum(['follow', 'error']).optional(),
        /**
         * Connect to this IP address, not to what the URL's name resolves to at download time (pinned-fetch.ts):
         * `POST /plugins` passes the address it checked, so a name re-pointed after the check (DNS rebinding)
         * cannot send the download inward. Implies `redirect: 'error'`.
         */
        address: ipAddressSchema.optional(),
        /** The whole download (connection, headers, body) must finish within this, ms; default 60 000. */
        timeoutMs: z.number().int().positive().max(600_000).optional(),
        signal: abortSignal.optional(),
      })
      .strict(),
    z.object({ bytes: z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'must be a Uint8Array'), sha256: sha256Hex.optional() }).strict(),
  ]);
});
export type PluginSource = z.input<ReturnType<typeof pluginSourceSchema>>;

/** Stops reading a path or a download (`POST /plugins`: its client left, or its load slot's time ran out); its reason is told. */
const abortSignal = z.custom<AbortSignal>((v) => v instanceof AbortSignal, 'must be an AbortSignal');

export interface ResolvedSource {
  bytes: Uint8Array;
  sha256: string;
  /** The path, the URL or `<bytes>`, for messages. */
  origin: string;
}

/** Whether bytes start as a WebAssembly module does (`00 61 73 6d`). */
export const isWasm = (bytes: Uint8Array): boolean => bytes[0] === 0x00 && bytes[1] === 0x61 && bytes[2] === 0x73 && bytes[3] === 0x6d;

/** Plugins (a download, a file) larger than this are refused while they are read. */
export const MAX_DOWNLOAD_BYTES = 64 << 20;

export function describeSource(source: unknown): string {
  if (source && typeof source === 'object') {
    if ('name' in source) return String(source.name);
    if ('path' in source) return String(source.path);
    if ('url' in source) return String(source.url);
    if ('bytes' in source) return '<bytes>';
  }
  return '<unknown source>';
}

/**
 * A first-party plugin by name alone (`{ name: 'guard-shell' }`, the most common source and part of
 * every cold start), as the schema would read it, without building the schema; `undefined` for
 * anything else, which the schema reads (test/plugins/source-fast.test.ts checks that they agree).
 */
function nameOnly(input: unknown): { name: string } | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const proto: unknown = Object.getPrototypeOf(input);
  const keys = Object.keys(input);
  if ((proto !== Object.prototype && proto !== null) || keys.length !== 1 || keys[0] !== 'name') return undefined;
  const name: unknown = (input as { name?: unknown }).name;
  return typeof name === 'string' && PLUGIN_NAME.test(name) ? { name } : undefined;
}

/** Validates a source (the schema, or `nameOnly` for a name alone). */
export function parseSource(input: PluginSource): z.output<ReturnType<typeof pluginSourceSchema>> {
  const byName = nameOnly(input);
  if (byName) return byName;
  // Once per load: zod's compiled fast path (a `new Function` per object schema) would cost more than it saves.
  const parsed = pluginSourceSchema().safeParse(input, { jitless: true });
  if (!parsed.success) {
    const hint =
      input && typeof input === 'object' && 'url' in input && !('sha256' in input)
        ? ': a plugin loaded from a URL needs a sha256 pin ({ url, sha256 })'
        : '';
    throw new WasmhooksError(
      'INVALID_OPTIONS',
      `invalid plugin source ${describeSource(input)}${hint}: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}

/** A source as `parseSource` gives it. */
export type ParsedSource = ReturnType<typeof parseSource>;

/** Validates a source, reads its bytes and checks the pin. */
export async function resolveSource(input: PluginSource): Promise<ResolvedSource> {
  return readSource(parseSource(input));
}

/** Reads a validated source's bytes and checks the pin. */
export async function readSource(source: ParsedSource): Promise<ResolvedSource> {
  const origin = describeSource(source);
  if ('name' in source) {
    // The package's own pin first; a caller's pin on top must agree with it.
    const plugin = await firstPartyPlugin(source.name);
    const bytes = await readBytes({ path: decodeURIComponent(plugin.url.pathname) }, origin);
    const actual = await sha256(bytes);
    for (const pin of [plugin.sha256, source.sha256]) {
      if (pin && pin !== actual) {
        throw new WasmhooksError('INTEGRITY', `first-party plugin ${origin} (${plugin.url.pathname}) does not match its pin: expected sha256 ${pin}, got ${actual}. The file was changed after it was built; reinstall the package (or rebuild with npm run build:plugins).`);
      }
    }
    return { bytes, sha256: actual, origin };
  }
  const bytes = await readBytes(source, origin);
  const actual = await sha256(bytes);
  if (source.sha256 && source.sha256 !== actual) {
    // The digest of a file that is no wasm is not told (load.ts keeps its size and first bytes too): `POST /plugins`
    // takes any path on the server with a pin, and "got <sha256>" of /etc/hostname or a short secret is its
    // content to anyone who can guess and hash candidates offline (review rv9).
    const got = 'path' in source && !isWasm(bytes) ? 'and the file is not a WebAssembly module' : `got ${actual}`;
    throw new WasmhooksError(
      'INTEGRITY',
      `plugin ${origin} does not match its pin: expected sha256 ${source.sha256}, ${got}. Refusing to load it; update the pin only if you trust the new build.`,
    );
  }
  return { bytes, sha256: actual, origin };
}

async function readBytes(source: Exclude<z.output<ReturnType<typeof pluginSourceSchema>>, { name: string }>, origin: string): Promise<Uint8Array> {
  // A copy: the pin is checked on these bytes, and the caller's buffer may change before they compile.
  if ('bytes' in source) return source.bytes.slice();
  if ('path' in source) return readPluginFile(source.path, origin, source.signal);
  const { response, read } = await fetchWithin(source.url, `plugin ${origin}`, source.timeoutMs, source.redirect, source.address, source.signal);
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new WasmhooksError('LOAD_FAILED', `cannot download plugin ${origin}: HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_DOWNLOAD_BYTES) {
    await response.body?.cancel().catch(() => {});
    throw new WasmhooksError('LOAD_FAILED', `plugin ${origin} is ${declared} bytes, above the ${MAX_DOWNLOAD_BYTES}-byte limit`);
  }
  const bytes = await read(MAX_DOWNLOAD_BYTES);
  if (!bytes) throw new WasmhooksError('LOAD_FAILED', `plugin ${origin} is above the ${MAX_DOWNLOAD_BYTES}-byte limit`);
  return bytes;
}

/**
 * A plugin file: a regular file (or a FIFO), read up to `MAX_DOWNLOAD_BYTES`
 * as the bytes arrive. A device (`/dev/zero`, `/dev/urandom`) or anything
 * else that never ends would be read until memory runs out; a directory or
 * socket is no plugin.
 */
async function readPluginFile(path: string, origin: string, signal?: AbortSignal): Promise<Uint8Array> {
  try {
    const bytes = await readFileCapped(path, MAX_DOWNLOAD_BYTES, signal);
    if (bytes === undefined) throw new WasmhooksError('LOAD_FAILED', `cannot read plugin ${origin}: it is larger than the ${MAX_DOWNLOAD_BYTES}-byte limit`);
    return bytes;
  } catch (error) {
    if (error instanceof WasmhooksError) throw error;
    throw new WasmhooksError('LOAD_FAILED', `cannot read plugin ${origin}: ${messageOf(error)}`, { cause: error });
  }
}

/**
 * A file's bytes as they arrive, at most `maxBytes` (undefined past them), from a regular file or a
 * FIFO only: `/dev/zero` and other devices are refused. Checked again on what was opened (the path may
 * name something else by now). Errors are the file system's, `code` kept (ENOENT), or "not a regular file".
 */
export async function readFileCapped(path: string, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array | undefined> {
  // node:fs/promises is implemented by Node, Deno and Bun alike; loaded here so the main entry stays web-standard.
  const [fs, { constants }] = await Promise.all([import('node:fs/promises'), import('node:fs')]);
  const regular = (info: { isFile(): boolean; isFIFO(): boolean }) => info.isFile() || info.isFIFO();
  if (!regular(await fs.stat(path))) throw new Error('not a regular file');
  // Non-blocking: opening a FIFO to read waits for a writer, holding one of the runtime's file-system threads
  // for as long (a path named in `POST /plugins` could be any FIFO on the machine, or be swapped for one
  // after the stat above). A FIFO without a writer now reads as empty at once; a regular file reads the same.
  const handle = await fs.open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (!regular(info)) throw new Error('not a regular file');
    // A named FIFO only. `/proc/self/fd/N` (or `/dev/fd/N`) of one of this process's own anonymous pipes (its
    // stdin, a child's output where the runtime pipes it) stats as a FIFO too, and reading it took the data
    // from whoever it was for (review rv9). Such a pipe has no path: its link reads `pipe:[…]`.
    if (info.isFIFO()) {
      const named = await fs.realpath(path).then((real) => fs.stat(real), () => undefined);
      if (!named?.isFIFO() || named.ino !== info.ino || named.dev !== info.dev) throw new Error('not a regular file or a named FIFO');
    }
    const waitUntil = info.isFIFO() ? performance.now() + FIFO_WAIT_MS : 0;
    const parts: Uint8Array[] = [];
    let total = 0;
    // One buffer until a read fills it: a FIFO polled every 10 ms below allocated a fresh MiB per poll (rv9).
    let chunk = new Uint8Array(1 << 20);
    let pause = 5;
    for (;;) {
      // A FIFO's writer may trickle or idle: the caller's signal ends the wait (its client left, its time ran out).
      signal?.throwIfAborted();
      const read = await handle.read(chunk, 0, chunk.length, null).catch((error: unknown) => {
        // A FIFO whose writer has sent nothing yet: wait for it here, in a timer, not in a blocked read.
        if ((error as { code?: unknown }).code !== 'EAGAIN' || performance.now() > waitUntil) throw error;
        // Backing off to 250 ms: each poll is a trip to the file-system threads, and loads waiting here are not
        // bounded by connections (a client may leave and ask again).
        pause = Math.min(pause * 2, 250);
        return new Promise<undefined>((resolve) => setTimeout(resolve, pause));
      });
      if (read === undefined) continue;
      pause = 5;
      const { bytesRead, buffer } = read;
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) return undefined;
      // A short last read keeps only its bytes, not the whole buffer.
      parts.push(bytesRead === buffer.length ? buffer : buffer.slice(0, bytesRead));
      if (bytesRead === buffer.length) chunk = new Uint8Array(1 << 20);
    }
    return parts.length === 1 ? (parts[0] as Uint8Array) : concatBytes(parts, total);
  } finally {
    await handle.close().catch(() => {});
  }
}

/** How long a FIFO's writer may pause before the read of a plugin file fails. */
const FIFO_WAIT_MS = 60_000;

/** How long a download (connection, headers and the whole body) may take unless its source says otherwise. */
const DOWNLOAD_TIMEOUT_MS = 60_000;

/**
 * Fetches `url` for `what` (`plugin …`, `the signature …`) under one deadline over the connection,
 * the headers and the body: a server that answers slowly, or stops in the middle of the body, fails
 * the load with LOAD_FAILED instead of holding it forever. `read(max)` takes the body, capped.
 */
export async function fetchWithin(
  url: string | URL,
  what: string,
  timeoutMs = DOWNLOAD_TIMEOUT_MS,
  redirect: 'follow' | 'error' = 'follow',
  /** Connect to this IP address and resolve nothing (pinned-fetch.ts); redirects are then refused. */
  address?: string,
  /** Stops the download sooner (its reason is told). */
  stop?: AbortSignal,
): Promise<{ response: Response; read: (max: number) => Promise<Uint8Array | undefined> }> {
  const signal = stop ? AbortSignal.any([AbortSignal.timeout(timeoutMs), stop]) : AbortSignal.timeout(timeoutMs);
  if (address !== undefined) redirect = 'error';
  const failed = (error: unknown) =>
    new WasmhooksError(
      'LOAD_FAILED',
      `cannot download ${what}: ${stop?.aborted ? messageOf(stop.reason) : signal.aborted ? `no complete answer within ${timeoutMs} ms` : redirect === 'error' ? `${messageOf(error)} (redirects are not followed here: give the final URL)` : messageOf(error)}`,
      { cause: error },
    );
  const download = address !== undefined ? import('./pinned-fetch.js').then(({ fetchPinned }) => fetchPinned(url, address, signal)) : fetch(url, { signal, redirect });
  const response = await download.catch((error: unknown) => {
    if (error instanceof WasmhooksError) throw error;
    throw failed(error);
  });
  return {
    response,
    read: (max) =>
      readBodyCapped(response, max, signal).catch((error: unknown) => {
        throw failed(error);
      }),
  };
}

/**
 * A response body of at most `max` bytes, or undefined (the download cancelled) as soon as it runs past them
 * (read-capped.ts). The deadline is watched here too, not only by the runtime's body: a pinned download's body
 * (pinned-fetch.ts) ends on the deadline only if the runtime's node:http errors the answer when its request aborts.
 */
async function readBodyCapped(response: Response, max: number, signal: AbortSignal): Promise<Uint8Array | undefined> {
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const body = await readCapped(response.body, max, { signal });
  if (body.end === 'aborted') throw signal.reason;
  return body.end === 'done' ? body.bytes : undefined;
}
