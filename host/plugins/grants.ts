/**
 * Grants: what an operator lets a plugin reach. Nothing is granted by
 * default, and a plugin that asks (in `describe`) for more than it was
 * granted is refused at load, with the difference listed.
 */
import { z } from 'zod';
import { WasmhooksError } from '../errors.js';
import type { PluginGrants } from '../protocol/codec.js';

export const grantsSchema = z
  .object({
    /** Hosts the plugin may reach over HTTP; `*.example.com` matches subdomains. */
    networkHosts: z.array(z.string().min(1)).default([]),
    /** Host paths the plugin may read, mapped to where the plugin sees them (`{ "/data": "/work/data" }`) or listed as-is. */
    filePaths: z.union([z.array(z.string().min(1)), z.record(z.string(), z.string())]).default([]),
    /** Config keys the plugin may read; their values come from the plugin's `config`. */
    configKeys: z.array(z.string().min(1)).default([]),
  })
  .strict();
export type Grants = z.input<typeof grantsSchema>;
export type ResolvedGrants = z.output<typeof grantsSchema>;

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
  const missing = [
    ...requested.networkHosts
      .filter((h) => !granted.networkHosts.some((g) => hostMatches(g, h)))
      .map((h) => `network host "${h}"`),
    ...requested.filePaths.filter((p) => !paths.some((g) => pathWithin(g, p))).map((p) => `file path "${p}"`),
    ...requested.configKeys.filter((k) => !granted.configKeys.includes(k)).map((k) => `config key "${k}"`),
  ];
  if (missing.length > 0) {
    throw new WasmhooksError(
      'GRANT_DENIED',
      `plugin ${plugin} asks for more than it was granted: ${missing.join(', ')}. Add them to the plugin's grants if you trust it, or use another plugin.`,
    );
  }
}
