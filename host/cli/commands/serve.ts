/** `wasmhooks serve`: the HTTP control plane over a host built from the config and flags. */
import { resolve } from 'node:path';
import { checkSignature, trustContext } from '../../config/trust.js';
import { loadPlugin } from '../../plugins/load.js';
import { createServer } from '../../server/app.js';
import type { ServerHost } from '../../server/types.js';
import { openStore, type OpenedStore } from '../../store/open.js';
import { CliError, EXIT, type ExitCode } from '../exit.js';
import { untilStopped, type CliIO } from '../io.js';
import { setupHost, type HostFlags } from '../setup.js';
import type { WorkspaceFlags } from '../workspace.js';
import { bearerToken, storeUrl } from '../token.js';

export interface ServeFlags extends HostFlags, WorkspaceFlags {
  port?: number;
  hostname?: string;
  token?: string;
  cors?: string[];
  allowedHost?: string[];
  globalEventFormat?: 'wasmhooks' | 'reference';
  allowPluginLoading?: boolean;
  dataDir?: string;
  store?: string;
  replica?: string;
  leaseMs?: number;
  replayWindow?: number;
  maxSessions?: number;
  maxSseClients?: number;
}

/** `--store redis://…` shares sessions with other replicas; otherwise a data directory (default `.wasmhooks/`). */
async function openServeStore(flags: ServeFlags, io: CliIO): Promise<OpenedStore> {
  const store = storeUrl(flags, io);
  if (store && flags.dataDir) throw new CliError('give --store (or WASMHOOKS_STORE) or --data-dir, not both (with --store, Redis keeps the sessions)', EXIT.USAGE);
  if (store) return openStore({ kind: 'redis', url: store, ...(flags.replayWindow ? { replayWindow: flags.replayWindow } : {}) });
  return openStore({ kind: 'file', dataDir: resolve(io.cwd, flags.dataDir ?? '.wasmhooks') });
}

export async function serveCommand(flags: ServeFlags, io: CliIO): Promise<ExitCode> {
  const opened = await openServeStore(flags, io);
  let setup;
  try {
    setup = await setupHost(flags, io, { workspace: flags });
  } catch (error) {
    await opened.close();
    throw error;
  }
  const plugins = [...setup.plugins];
  const host: ServerHost = {
    session: (options) => setup.host.session(options),
    plugins: () => plugins,
    // Only reachable when --allow-plugin-loading is set; the server checks that.
    async loadPlugin(source) {
      const entry = source.url ? { url: source.url, sha256: source.sha256 ?? '' } : { path: source.path ?? '', ...(source.sha256 ? { sha256: source.sha256 } : {}) };
      const redirect = source.redirect ?? 'follow';
      // requireSignature holds for plugins loaded over HTTP too (they are not in the lock: not config entries).
      const signed = await checkSignature(entry, entry.sha256, await trustContext(setup.config, io.cwd), 'POST /plugins', redirect, source.address);
      // Exactly the bytes whose signature was checked: the file is read again to load it.
      const pinned = signed && !entry.sha256 ? { ...entry, sha256: signed.sha256 } : entry;
      // Every download of this load connects to the address the server checked (no second resolution: DNS rebinding).
      const stop = source.signal ? { signal: source.signal } : {};
      const plugin = await loadPlugin('url' in pinned ? { ...pinned, redirect, ...(source.address !== undefined ? { address: source.address } : {}), ...stop } : { ...pinned, ...stop });
      setup.host.use(plugin);
      plugins.push(plugin);
      return plugin;
    },
  };
  const token = bearerToken(flags, io);
  const server = createServer(host, {
    ...(flags.port !== undefined ? { port: flags.port } : {}),
    ...(flags.hostname ? { hostname: flags.hostname } : {}),
    ...(token ? { token } : {}),
    ...(flags.cors?.length ? { corsOrigins: flags.cors } : {}),
    ...(flags.allowedHost?.length ? { allowedHosts: flags.allowedHost } : {}),
    ...(flags.globalEventFormat ? { globalEventFormat: flags.globalEventFormat } : {}),
    ...(flags.allowPluginLoading ? { allowPluginLoading: true } : {}),
    store: opened.store,
    ...(opened.eventLog ? { eventLog: opened.eventLog } : {}),
    ...(flags.replica ? { replica: flags.replica } : {}),
    ...(flags.leaseMs ? { leaseMs: flags.leaseMs } : {}),
    ...(flags.replayWindow ? { replayBufferSize: flags.replayWindow } : {}),
    ...(flags.maxSessions ? { maxSessions: flags.maxSessions } : {}),
    ...(flags.maxSseClients ? { maxSseClients: flags.maxSseClients } : {}),
  });
  let served;
  try {
    served = await server.listen();
  } catch (error) {
    await setup.close();
    await opened.close();
    throw error;
  }
  io.stdout.write(`wasmhooks serving on ${served.url} (model ${setup.model.id}, ${setup.plugins.length} plugin${setup.plugins.length === 1 ? '' : 's'}, ${setup.tools.length} workspace tool${setup.tools.length === 1 ? '' : 's'}${token ? ', bearer token required' : ''}); sessions in ${opened.description}, replica ${server.replica}\n`);
  await untilStopped();
  await server.close();
  await opened.close();
  await Promise.all([setup.close(), ...plugins.slice(setup.plugins.length).map((p) => p.close())]);
  return EXIT.OK;
}
