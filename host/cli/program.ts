/**
 * The `wasmhooks` command line, on commander. Each action returns an exit
 * code; `runCli` maps errors to codes (see ./exit.ts) and never exits itself.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { WasmhooksError, messageOf } from '../errors.js';
// Commands are imported when they run: `--help` or one command does not load the server, the
// MCP SDK, the compilers' glue and the agent of every other command (CPU at start: see CHANGELOG).
import type { BuildFlags } from './commands/build.js';
import type { McpFlags } from './commands/mcp.js';
import type { NewFlags } from './commands/new.js';
import type { PluginAddFlags } from './commands/plugin-add.js';
import type { ReplayFlags } from './commands/replay.js';
import type { RunFlags } from './commands/run.js';
import type { ServeFlags } from './commands/serve.js';
import type { TrustFlags } from './commands/trust.js';
import { PLUGIN_LANGS } from './plugin-langs.js';
import { CliError, EXIT, type ExitCode } from './exit.js';
import type { CliIO } from './io.js';
import { printable } from './printable.js';

const VERSION = '0.1.0';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return n;
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError(`expected a port number 0-65535, got "${value}"`);
  return n;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `run` and `serve`: the workspace toolset and its default guards. */
function workspaceOptions(cmd: Command): Command {
  return cmd
    .option('--tools <list>', 'workspace tools to offer, comma-separated (default: Read,Write,Edit,Glob,Grep,Bash, confined to the cwd)')
    .option('--no-tools', 'offer no workspace tools')
    .option('--no-default-guards', 'do not load the guard-shell and path-guard plugins around the workspace tools');
}

function hostOptions(cmd: Command): Command {
  return cmd
    .option('-c, --config <file>', 'config file (default: ./wasmhooks.json when present)')
    .option('-m, --model <spec>', 'scripted | openai:<model> | anthropic:<model> (default: config, else scripted)')
    .option('--base-url <url>', 'base URL of an OpenAI-compatible or Anthropic API')
    .option('--script <file.json>', 'turns for the scripted model (offline, deterministic)')
    .option('-p, --plugin <name|file.wasm>', 'load a plugin: a first-party name (guard-shell) or a .wasm file (repeatable), on top of the config\'s', collect)
    .addOption(
      new Option('--permission-mode <mode>', 'what happens to a tool call no hook decided').choices([
        'default',
        'acceptEdits',
        'bypassPermissions',
        'dontAsk',
      ]),
    )
    .option('--max-turns <n>', 'model calls allowed per prompt', positiveInt)
    .option('--system-prompt <text>', 'system prompt for the model');
}

/** Builds the program; `exit` receives each action's code. */
function buildProgram(io: CliIO, exit: (code: ExitCode) => void): Command {
  const program = new Command('wasmhooks')
    .description('Run an agent whose hooks, tools and stop-handlers are sandboxed WebAssembly plugins.')
    .version(VERSION, '-v, --version')
    .showHelpAfterError('(add --help for usage)')
    .showSuggestionAfterError(true)
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .exitOverride();

  workspaceOptions(hostOptions(program.command('run').argument('<prompt>', 'what the agent should do').description('run one prompt and show what the agent and its hooks do'))
    )
    .option('--json', 'print every event as one JSON line instead')
    .option('--record <file.jsonl>', 'record every hook input, for plugin test --events')
    .option('--verbose', 'also show thinking, turns and every hook call')
    .option('--no-ask', 'never ask at the terminal whether a tool may run (undecided calls are denied)')
    .action(async (prompt: string, flags: RunFlags) => exit(await (await import('./commands/run.js')).runCommand(prompt, flags, io)));

  workspaceOptions(hostOptions(program.command('serve').description('serve the HTTP API (sessions, SSE events, control requests) and the browser console')))
    .option('--port <n>', 'port to listen on (0 picks a free one)', port)
    .option('--hostname <host>', 'interface to bind (default 127.0.0.1; anything else needs --token)')
    .option('--token <token>', 'bearer token required on every request (default: $WASMHOOKS_TOKEN)')
    .option('--cors <origin>', 'allow a browser origin (repeatable)', collect)
    .option('--allowed-host <name>', 'also answer this Host name on loopback, e.g. behind a proxy (repeatable)', collect)
    .option('--global-event-format <format>', 'default /global/event envelope: wasmhooks or reference')
    .option('--allow-plugin-loading', 'let POST /plugins load plugins from a path or pinned URL')
    .option('--data-dir <path>', 'keep sessions and JSONL transcripts here (default .wasmhooks under the working directory)')
    .option('--store <url>', 'share sessions and events with other replicas through Redis (redis://host:port; default: $WASMHOOKS_STORE, the place for a URL with a password)')
    .option('--replica <name>', 'this process among replicas (default: random)')
    .option('--lease-ms <n>', 'prompt lease: a replica that dies mid-prompt is noticed after about this long (default 10000)', positiveInt)
    .option('--max-sessions <n>', 'sessions kept at most; POST /session past it is refused (429) until one is deleted (default 10000)', positiveInt)
    .option('--max-sse-clients <n>', 'SSE streams served at once; one more is refused (503) until one closes (default 1000)', positiveInt)
    .option('--replay-window <n>', 'events kept for Last-Event-ID replay (default 4096 in memory, 10000 in Redis)', positiveInt)
    .action(async (flags: ServeFlags) => exit(await (await import('./commands/serve.js')).serveCommand(flags, io)));

  program
    .command('mcp')
    .description('serve the loaded plugins\' tools to MCP clients (stdio; --http for Streamable HTTP), with the loaded guards around every call')
    .option('-c, --config <file>', 'config file (default: ./wasmhooks.json when present)')
    .option('-p, --plugin <name|file.wasm>', 'load a plugin: a first-party name (guard-shell) or a .wasm file (repeatable), on top of the config\'s', collect)
    .addOption(new Option('--permission-mode <mode>', 'what happens to a call no hook decided (default bypassPermissions: the MCP client asks its user)').choices(['default', 'acceptEdits', 'bypassPermissions', 'dontAsk']))
    .option('--http', 'serve Streamable HTTP at /mcp instead of stdio')
    .option('--port <n>', 'port for --http (0 picks a free one; default 4097)', port)
    .option('--hostname <host>', 'interface for --http (default 127.0.0.1; anything else needs --token)')
    .option('--token <token>', 'bearer token required with --http (default: $WASMHOOKS_TOKEN)')
    .option('--max-concurrent-calls <n>', 'tool calls run at once, 1 to 1024 (default 8); more wait their turn', positiveInt)
    .action(async (flags: McpFlags) => exit(await (await import('./commands/mcp.js')).mcpCommand(flags, io)));

  program
    .command('trust')
    .argument('[config]', 'the config file (default: ./wasmhooks.json)')
    .description('let this config run its hook modules, shell hooks and MCP commands and widen permissions (bypassPermissions, acceptEdits, allowedTools), as it is now: any change needs trusting again')
    .option('--revoke', 'take the trust back')
    .action(async (file: string | undefined, flags: TrustFlags) => exit(await (await import('./commands/trust.js')).trustCommand(file, flags, io)));

  const plugin = program.command('plugin').description('add, inspect, sign, verify, create, build and test plugins');
  plugin
    .command('inspect')
    .argument('<plugin>', 'a first-party plugin name (guard-shell), a .wasm file or an http(s) URL')
    .description('show what a plugin is and asks for: bindings, tools, requested grants, imports, exports, size, sha256')
    .option('--json', 'print the report as JSON')
    .action(async (ref: string, flags: { json?: boolean }) => exit(await (await import('./commands/inspect.js')).inspectCommand(ref, flags, io)));
  plugin
    .command('add')
    .argument('<plugin>', 'a first-party name (guard-shell), an npm package (npm:name or @scope/name), an https URL, a .wasm file or a plugin package folder')
    .description('record a plugin in wasmhooks.json and wasmhooks.lock (source, version, sha256, consented grants); re-run to upgrade')
    .option('-c, --config <file>', 'config file to update (default: ./wasmhooks.json, created when missing)')
    .option('--accept-grants', 'consent to the grants the plugin asks for beyond what was consented before')
    .option('--no-ask', 'never ask at the terminal (grants not consented are refused)')
    .action(async (ref: string, flags: PluginAddFlags) => exit(await (await import('./commands/plugin-add.js')).pluginAddCommand(ref, flags, io)));
  plugin
    .command('keygen')
    .argument('<key-id>', 'a name for the key (letters, digits, ".", "_", "-"), e.g. acme-2026')
    .description('make an Ed25519 signing key: writes the private key file, prints the trustedKeys entry')
    .option('-o, --out <file>', 'private key file (default: <key-id>.key.json; never overwritten)')
    .action(async (keyId: string, flags: { out?: string }) => exit(await (await import('./commands/plugin-sign.js')).keygenCommand(keyId, flags, io)));
  plugin
    .command('sign')
    .argument('<file.wasm>', 'the plugin to sign')
    .description('sign a plugin with a key from plugin keygen: writes <file.wasm>.sig')
    .requiredOption('-k, --key <file>', 'private key file')
    .option('-o, --out <file>', 'signature file (default: <file.wasm>.sig)')
    .action(async (file: string, flags: { key: string; out?: string }) => exit(await (await import('./commands/plugin-sign.js')).signCommand(file, flags, io)));
  plugin
    .command('verify')
    .argument('<plugin>', 'a .wasm file or an http(s) URL (its signature: <plugin>.sig)')
    .description('check a plugin\'s signature against the trusted keys of wasmhooks.json')
    .option('-c, --config <file>', 'config holding trustedKeys (default: ./wasmhooks.json)')
    .option('--signature <file>', 'signature file (default: <plugin>.sig)')
    .action(async (ref: string, flags: { config?: string; signature?: string }) => exit(await (await import('./commands/plugin-sign.js')).verifyCommand(ref, flags, io)));
  plugin
    .command('new')
    .argument('<name>', 'plugin name (lower-case letters, digits and dashes)')
    .description('scaffold a plugin project on the guest SDK (builds and passes its test out of the box)')
    .option('--dir <path>', 'where to create it (default: ./<name>)')
    .addOption(new Option('--lang <lang>', 'the language to write it in (c needs clang and lld)').choices(PLUGIN_LANGS).default('assemblyscript'))
    .action(async (name: string, flags: NewFlags) => exit(await (await import('./commands/new.js')).newCommand(name, flags, io)));
  plugin
    .command('build')
    .argument('[dir]', 'plugin folder holding assembly/index.ts (AssemblyScript) or src/*.c (C)', '.')
    .description('compile an AssemblyScript or C plugin to build/<name>.wasm')
    .option('-o, --out <file.wasm>', 'output file')
    .option('--debug', 'debug build (names, no optimisation)')
    .action(async (dir: string, flags: BuildFlags) => exit(await (await import('./commands/build.js')).buildCommand(dir, flags, io)));
  plugin
    .command('test')
    .argument('<plugin>', 'a first-party plugin name (guard-shell), a .wasm file or an http(s) URL')
    .description('replay recorded hook inputs through a plugin; with --against, diff two builds\' decisions')
    .requiredOption('-e, --events <file.jsonl>', 'hook inputs recorded with run --record')
    .option('--against <other>', 'a second build to compare with (exit 5 when they decide differently)')
    .option('--json', 'print one JSON line per input')
    .option('--all', 'also list inputs that no binding of the plugin matches')
    .option('-c, --config <file>', 'take limits, grants and config from this config\'s entry for the plugin (default: ./wasmhooks.json)')
    .option('--grant-requested', 'grant the plugin whatever grants it requests (local testing only)')
    .option('--timeout-ms <n>', 'deadline per call', positiveInt)
    .option('--fuel <n>', 'fuel per call', positiveInt)
    .action(async (ref: string, flags: ReplayFlags) => exit(await (await import('./commands/replay.js')).replayCommand(ref, flags, io)));

  return program;
}

/** Runs the command line; resolves to the exit code and never calls process.exit. */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  let code: number = EXIT.OK;
  const program = buildProgram(io, (c) => (code = c));
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; every parse error is a usage error.
      return error.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    }
    // Messages quote what plugins, MCP servers and config files said (a matcher, a name, a failure): printable (red12).
    if (error instanceof CliError) {
      io.stderr.write(`wasmhooks: ${printable(error.message)}\n`);
      return error.exitCode;
    }
    if (error instanceof WasmhooksError) {
      io.stderr.write(`wasmhooks: ${printable(error.message)} [${error.code}]\n`);
      return error.code === 'INVALID_CONFIG' || error.code === 'INVALID_OPTIONS' ? EXIT.USAGE : EXIT.ERROR;
    }
    io.stderr.write(`wasmhooks: unexpected error: ${printable(error instanceof Error ? (error.stack ?? error.message) : messageOf(error))}\n`);
    return EXIT.ERROR;
  }
}
