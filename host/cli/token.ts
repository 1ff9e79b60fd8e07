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

/**
 * `serve`'s Redis URL: `--store` or `WASMHOOKS_STORE`. A password in the URL (`redis://:pw@host`, or
 * `?password=`) on the command line is in the process list like `--token` (and opens the whole session
 * store): taken, with a warning pointing to the variable.
 */
export function storeUrl(flags: { store?: string }, io: CliIO): string | undefined {
  if (flags.store !== undefined && hasCredentials(flags.store)) {
    io.stderr.write('warning: the credentials in --store are visible to every user of this machine in the process list (ps); set WASMHOOKS_STORE instead\n');
  }
  return flags.store ?? (io.env.WASMHOOKS_STORE || undefined);
}

function hasCredentials(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '' || /[?&]password=/i.test(parsed.search);
  } catch {
    // Unparseable: say nothing here; connectRedis names the problem without echoing it.
    return /@|password=/i.test(url);
  }
}
