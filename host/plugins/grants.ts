/**
 * Grants: what an operator lets a plugin reach. Nothing is granted by
 * default, and a plugin that asks (in `describe`) for more than it was
 * granted is refused at load, with the difference listed.
 */
import { z } from 'zod';
import { WasmhooksError } from '../errors.js';
import { lazy } from '../lazy.js';
import type { PluginGrants } from '../protocol/codec.js';
import type { HostFunctions } from '../sandbox/host-functions.js';
import { USER_MODULE } from '../sandbox/host-functions.js';
import { functionImports } from '../sandbox/imports.js';

/** A list of non-empty strings, each refused with `expected <what>`. */
const names = (what: string) =>
  z.array(z.string({ error: `expected ${what}` }).min(1, { error: `expected ${what}` }), { error: `expected an array of ${what.replace(/^an? /, '')}s` });

/**
 * A plugin's grants, wherever they are written: `loadPlugin`'s `grants` option and a `wasmhooks.json`
 * plugin's `grants` are this schema (see plugins/options.ts). Each list is optional: `resolveGrants`
 * fills the absent ones with nothing, at load; the config file keeps what was written.
 */
export const grantsSchema = lazy(() =>
  z
    .object(
      {
        networkHosts: names('a host name').describe('Hosts the plugin may reach; `*.example.com` matches subdomains.'),
        // Listed as-is, or mapped to where the plugin sees them (`{ "/work/data": "/data" }`).
        filePaths: z
          .union([names('a path'), z.record(z.string(), z.string({ error: 'expected a path' }))], {
            error: 'expected an array of paths or an object mapping host paths to plugin paths',
          })
          .describe('Host paths the plugin may read (in wasmhooks.json, relative to its folder).'),
        configKeys: names('a config key').describe('Config keys the plugin may read; their values come from the plugin\'s `config`.'),
        hostFunctions: names('a host function name').describe(
          'Embedder host functions (extism:host/user) the plugin may import; the embedding application provides them.',
        ),
      },
      // Only for a value that is no object: an unknown grant keeps the unknown-field message, which names it.
      { error: (issue) => (issue.code === 'invalid_type' ? 'expected an object of grants ({ "networkHosts", "filePaths", "configKeys", "hostFunctions" })' : undefined) },
    )
    .partial()
    .strict(),
);
export type Grants = z.input<ReturnType<typeof grantsSchema>>;
export type ResolvedGrants = Required<z.output<ReturnType<typeof grantsSchema>>>;

/** Grants as the loader uses them: every list there, empty unless granted. */
export function resolveGrants(grants: z.output<ReturnType<typeof grantsSchema>> | undefined): ResolvedGrants {
  return { networkHosts: [], filePaths: [], configKeys: [], hostFunctions: [], ...grants };
}

const hostMatches = (granted: string, host: string) =>
  granted === host || (granted.startsWith('*.') && host.endsWith(granted.slice(1)));

const pathWithin = (granted: string, path: string) => {
  const base = granted.replace(/\/+$/, '');
  return path === base || path.startsWith(`${base}/`);
};

/** The plugin-visible paths of a grant. */
export function grantedPaths(grants: ResolvedGrants): Record<string, string> {
  return Array.isArray(grants.filePaths)
    ? Object.fromEntries(grants.filePaths.map((p) => [p, p]))
    : grants.filePaths;
}

/** Throws GRANT_DENIED when `requested` asks for anything `granted` lacks. */
export function checkGrants(plugin: string, requested: PluginGrants, granted: ResolvedGrants): void {
  const paths = Object.values(grantedPaths(granted));
  const configKeys = new Set(granted.configKeys);
  const missing = [
    ...requested.networkHosts
      .filter((h) => !granted.networkHosts.some((g) => hostMatches(g, h)))
      .map((h) => `network host "${h}"`),
    ...requested.filePaths.filter((p) => !paths.some((g) => pathWithin(g, p))).map((p) => `file path "${p}"`),
    ...requested.configKeys.filter((k) => !configKeys.has(k)).map((k) => `config key "${k}"`),
  ];
  if (missing.length > 0) {
    throw new WasmhooksError(
      'GRANT_DENIED',
      `plugin ${plugin} asks for more than it was granted: ${missing.join(', ')}. Add them to the plugin's grants if you trust it, or use another plugin.`,
    );
  }
}

/**
 * The host functions a plugin gets: those granted by name, taken from the
 * ones on offer. A plugin importing one it was not granted is refused here,
 * before it is compiled: GRANT_DENIED naming the function.
 */
export function grantedHostFunctions(
  origin: string,
  bytes: Uint8Array,
  options: { grants: ResolvedGrants; hostFunctions?: HostFunctions | undefined },
): HostFunctions {
  const granted = options.grants.hostFunctions;
  const offered = options.hostFunctions ?? {};
  const unknown = granted.filter((name) => !Object.hasOwn(offered, name));
  if (unknown.length > 0) {
    throw new WasmhooksError(
      'INVALID_OPTIONS',
      `plugin ${origin} is granted host functions nobody provides: ${unknown.join(', ')} (offered: ${Object.keys(offered).join(', ') || 'none'})`,
    );
  }
  let imported: string[] = [];
  try {
    imported = functionImports(bytes).filter((i) => i.module === USER_MODULE).map((i) => i.name);
  } catch {
    // Malformed bytes: the sandbox reports them, with the offset.
  }
  const denied = imported.filter((name) => !granted.includes(name));
  if (denied.length > 0) {
    throw new WasmhooksError(
      'GRANT_DENIED',
      `plugin ${origin} imports host functions it was not granted: ${denied.join(', ')}. Add them to the plugin's grants.hostFunctions if you trust it with them.`,
    );
  }
  return Object.fromEntries(granted.map((name) => [name, offered[name]!]));
}
