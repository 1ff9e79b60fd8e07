/**
 * First-party plugins by name: `loadPlugin({ name: 'guard-shell' })`. The
 * package ships each built plugin with `plugins/first-party.json`, which pins
 * its sha256; a build that does not match its pin is refused (INTEGRITY).
 */
import { WasmhooksError, messageOf } from '../errors.js';
import { registerPrebuilt } from '../sandbox/compiled.js';
import { sha256 } from '../sandbox/digest.js';

/** Names a first-party plugin may have (`plugin new` enforces the same). */
export const PLUGIN_NAME = /^[a-z][a-z0-9-]{0,63}$/;

export interface FirstPartyPlugin {
  name: string;
  /** Where the .wasm is. */
  url: URL;
  sha256: string;
  bytes: number;
}

const MANIFEST = 'plugins/first-party.json';
/** The same plugins instrumented at build time, by compiled-cache key (scripts/preinstrument.ts; see sandbox/compiled.ts). */
const PREBUILT = 'prebuilt.json';

interface PrebuiltEntry {
  file: string;
  sha256: string;
}

/**
 * Reads one shipped pre-instrumented file: its bytes when they are the ones recorded at build
 * time, else `undefined` (a missing or altered file: the plugin is then instrumented at load).
 */
export function prebuiltReader(url: URL, expected: string): () => Promise<Uint8Array | undefined> {
  return async () => {
    try {
      const { readFile } = await import('node:fs/promises');
      const bytes = new Uint8Array(await readFile(url));
      return (await sha256(bytes)) === expected ? bytes : undefined;
    } catch {
      return undefined;
    }
  };
}

/** A shipped file's name as scripts/preinstrument.ts writes it: inside its plugin's folder, never elsewhere. */
const PREBUILT_FILE = /^[a-z][a-z0-9-]{0,63}\/build\/[a-z][a-z0-9-]{0,63}\.instrumented\.wasm$/;

/** Registers the package's pre-instrumented plugins; without the file (a clone before `build:plugins`) there are none. */
async function registerShipped(base: URL, readFile: (url: URL, encoding: 'utf8') => Promise<string>): Promise<void> {
  let entries: Record<string, PrebuiltEntry>;
  try {
    entries = JSON.parse(await readFile(new URL(PREBUILT, base), 'utf8')) as Record<string, PrebuiltEntry>;
  } catch {
    return;
  }
  for (const [key, e] of Object.entries(entries)) {
    if (typeof e?.file === 'string' && PREBUILT_FILE.test(e.file) && typeof e.sha256 === 'string') registerPrebuilt(key, prebuiltReader(new URL(e.file, base), e.sha256));
  }
}

/**
 * The package's own plugins/ folder, as seen from this module: beside the build (a chunk in dist/) or two
 * folders above the sources (host/plugins/); undefined for a bundle of the sources elsewhere.
 */
function ownPluginsFolder(moduleUrl: string): URL | undefined {
  const path = new URL(moduleUrl).pathname;
  if (/\/dist\/[^/]+$/.test(path)) return new URL('../plugins/', moduleUrl);
  if (/\/host\/plugins\/first-party\.[jt]s$/.test(path)) return new URL('../../plugins/', moduleUrl);
  return undefined;
}

// The package root holds the manifest. The build and the sources know where
// their own is, and look nowhere else: a manifest further up
// (node_modules/plugins/, the application's folder) is not this package's,
// and would name any bytes "guard-shell" (and their "instrumented" form).
// Only a bundle of the sources elsewhere (the CLI tests', in
// node_modules/.cache/) looks one, two and three folders up, the nearest
// first, and trusts no pre-instrumented file (its plugins are instrumented
// at load).
const own = ownPluginsFolder(import.meta.url);
const candidates = () => (own ? [new URL('first-party.json', own)] : ['../', '../../', '../../../'].map((up) => new URL(`${up}${MANIFEST}`, import.meta.url)));

let manifest: Promise<{ base: URL; entries: Record<string, { file: string; sha256: string; bytes: number }> }> | undefined;

async function readManifest() {
  const { readFile } = await import('node:fs/promises');
  const tried: string[] = [];
  for (const url of candidates()) {
    try {
      const entries = JSON.parse(await readFile(url, 'utf8')) as Record<string, { file: string; sha256: string; bytes: number }>;
      const base = new URL('.', url);
      if (own) await registerShipped(base, readFile);
      return { base, entries };
    } catch (error) {
      tried.push(`${url.pathname} (${messageOf(error)})`);
    }
  }
  throw new WasmhooksError(
    'LOAD_FAILED',
    `the first-party plugins are not built (no ${MANIFEST}; tried ${tried.join(', ')}): in a clone of wasmhooks run "npm run build:plugins"; the npm package ships them built`,
  );
}

/** The first-party plugins this package has, by name. */
export async function firstPartyPlugins(): Promise<FirstPartyPlugin[]> {
  const m = await (manifest ??= readManifest().catch((e: unknown) => {
    manifest = undefined;
    throw e;
  }));
  return Object.entries(m.entries).map(([name, e]) => ({ name, url: new URL(e.file, m.base), sha256: e.sha256, bytes: e.bytes }));
}

/** One first-party plugin, or a clear error listing the known names. */
export async function firstPartyPlugin(name: string): Promise<FirstPartyPlugin> {
  if (!PLUGIN_NAME.test(name)) throw new WasmhooksError('INVALID_OPTIONS', `plugin name ${JSON.stringify(name)} must match ${PLUGIN_NAME.source}`);
  const all = await firstPartyPlugins();
  const found = all.find((p) => p.name === name);
  if (!found) {
    throw new WasmhooksError('NOT_FOUND', `no first-party plugin named "${name}"; known: ${all.map((p) => p.name).join(', ')} (for your own plugin give { path } or { url, sha256 })`);
  }
  return found;
}
