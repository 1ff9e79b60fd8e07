/**
 * `wasmhooks trust [config]`: the user allows a `wasmhooks.json` to run code
 * and widen permissions on this machine, as it is now (workspace-trust.ts).
 */
import { resolve } from 'node:path';
import { CONFIG_FILE_NAME, loadConfig } from '../../config/load.js';
import { WasmhooksError } from '../../errors.js';
import { CliError, EXIT, type ExitCode } from '../exit.js';
import type { CliIO } from '../io.js';
import { printable } from '../printable.js';
import { recordTrust, trustedParts } from '../workspace-trust.js';

export interface TrustFlags {
  revoke?: boolean;
}

export async function trustCommand(file: string | undefined, flags: TrustFlags, io: CliIO): Promise<ExitCode> {
  const path = resolve(io.cwd, file ?? CONFIG_FILE_NAME);
  const config = await loadConfig(path).catch((error: unknown) => {
    if (error instanceof WasmhooksError && error.code === 'INVALID_CONFIG') throw new CliError(error.message, EXIT.USAGE);
    throw error;
  });
  const { store, files } = await recordTrust(config, io.env, io.cwd, flags.revoke === true);
  if (flags.revoke) {
    io.stdout.write(`no longer trusted: ${config.file} (${store})\n`);
    return EXIT.OK;
  }
  const parts = trustedParts(config);
  io.stdout.write(`trusted: ${config.file}, as it is now (sha256 ${config.sha256}; kept in ${store})\n`);
  // Paths, names and hosts are the repository's words: printable (red12).
  if (files.length > 0) io.stdout.write(`${printable(`with the files it names, as they are now: ${files.join(', ')}`)}\n`);
  io.stdout.write(parts.length > 0 ? `${printable(`it may now run: ${parts.join(', ')}`)}\n` : 'it has nothing that needs trust today but its plugins\' allow; a later change that adds some needs trusting again\n');
  return EXIT.OK;
}
