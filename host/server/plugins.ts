/** `GET /plugins`: what the host has loaded, read from whatever it exposes. */
import type { ResolvedGrants } from '../plugins/grants.js';
import type { Limits } from '../sandbox/types.js';
import type { WasiGrant } from '../sandbox/wasi/options.js';
import type { ServerHost } from './types.js';

export interface PluginView {
  name: string;
  version: string | null;
  sha256: string | null;
  origin: string | null;
  bindings: { event: string; matcher: string | null; failurePolicy: string | null }[];
  tools: string[];
  limits: Readonly<Limits> | null;
  health: string;
  /** The grants it runs with, WASI's included (null: not recorded by this host). */
  grants: ResolvedGrants | null;
  wasi: WasiGrant | null;
}

export function pluginViews(host: ServerHost): PluginView[] {
  const plugins = typeof host.plugins === 'function' ? host.plugins() : (host.plugins ?? []);
  return plugins.map((p) => ({
    name: p.name,
    version: p.info?.version ?? null,
    sha256: p.sha256 ?? null,
    origin: p.origin ?? null,
    bindings: (p.info?.hooks ?? []).map((b) => ({
      event: b.event,
      matcher: b.matcher || null,
      failurePolicy: b.failurePolicy || null,
    })),
    tools: (p.info?.tools ?? []).map((t) => t.name),
    limits: p.limits ?? null,
    health: p.sandbox?.health ?? 'unknown',
    grants: p.pin?.grants ?? null,
    wasi: p.pin?.wasi ?? null,
  }));
}
