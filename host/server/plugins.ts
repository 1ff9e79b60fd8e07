/** `GET /plugins`: what the host has loaded, read from whatever it exposes. */
import type { Limits } from '../sandbox/types.js';
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
  }));
}
