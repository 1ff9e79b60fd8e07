/** `wasmhooks serve`: the HTTP control plane over a host built from the config and flags. */
import process from 'node:process';
import { loadPlugin } from '../../plugins/load.js';
import { createServer } from '../../server/app.js';
import type { ServerHost } from '../../server/types.js';
import { EXIT, type ExitCode } from '../exit.js';
import type { CliIO } from '../io.js';
import { setupHost, type HostFlags } from '../setup.js';
import type { WorkspaceFlags } from '../workspace.js';

export interface ServeFlags extends HostFlags, WorkspaceFlags {
  port?: number;
  hostname?: string;
  token?: string;
  cors?: string[];
  allowedHost?: string[];
  globalEventFormat?: 'wasmhooks' | 'reference';
  allowPluginLoading?: boolean;
}

export async function serveCommand(flags: ServeFlags, io: CliIO): Promise<ExitCode> {
  const setup = await setupHost(flags, io, { workspace: flags });
  const plugins = [...setup.plugins];
  const host: ServerHost = {
    session: (options) => setup.host.session(options),
    plugins: () => plugins,
    // Only reachable when --allow-plugin-loading is set; the server checks that.
    async loadPlugin(source) {
      const plugin = await loadPlugin(source.url ? { url: source.url, sha256: source.sha256 ?? '' } : { path: source.path ?? '', ...(source.sha256 ? { sha256: source.sha256 } : {}) });
      setup.host.use(plugin);
      plugins.push(plugin);
      return plugin;
    },
  };
  const token = flags.token ?? io.env.WASMHOOKS_TOKEN;
  const server = createServer(host, {
    ...(flags.port !== undefined ? { port: flags.port } : {}),
    ...(flags.hostname ? { hostname: flags.hostname } : {}),
    ...(token ? { token } : {}),
    ...(flags.cors?.length ? { corsOrigins: flags.cors } : {}),
    ...(flags.allowedHost?.length ? { allowedHosts: flags.allowedHost } : {}),
    ...(flags.globalEventFormat ? { globalEventFormat: flags.globalEventFormat } : {}),
    ...(flags.allowPluginLoading ? { allowPluginLoading: true } : {}),
  });
  let served;
  try {
    served = await server.listen();
  } catch (error) {
    await setup.close();
    throw error;
  }
  io.stdout.write(`wasmhooks serving on ${served.url} (model ${setup.model.id}, ${setup.plugins.length} plugin${setup.plugins.length === 1 ? '' : 's'}, ${setup.tools.length} workspace tool${setup.tools.length === 1 ? '' : 's'}${token ? ', bearer token required' : ''})\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
  await Promise.all([setup.close(), ...plugins.slice(setup.plugins.length).map((p) => p.close())]);
  return EXIT.OK;
}
