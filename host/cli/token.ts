/** The bearer token of `serve` and `mcp --http`: the flag or `WASMHOOKS_TOKEN`. */
import type { CliIO } from './io.js';

/**
 * Every local user can read a process's command line (`ps`, /proc/<pid>/cmdline), and the token
 * approves tool calls over HTTP: given as `--token` it is still taken (scripts use it), with a warning
 * saying where to put it instead. The environment is readable by this user (and root) only.
 */
export function bearerToken(flags: { token?: string }, io: CliIO): string | undefined {
  if (flags.token !== undefined) {
    io.stderr.write('warning: --token is visible to every user of this machine in the process list (ps); set WASMHOOKS_TOKEN instead\n');
  }
  return flags.token ?? io.env.WASMHOOKS_TOKEN;
}
