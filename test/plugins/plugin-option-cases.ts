// One table of a plugin's load options (grants, wasi, failurePolicy, isolation, config, pluginName,
// allowExceptions; limits have their own table, test/sandbox/limit-cases.ts, which uses optionVerdicts) through the two places a person writes them: a wasmhooks.json plugin entry (parseConfig)
// and loadPlugin's options. Both are host/plugins/options.ts's schemas (pluginOptionSchemas), so each row gets
// one verdict from both, and a refusal names the same field with the same words. Shared by
// test/plugins/plugin-option-schema.test.ts (host/) and test/xrt/plugins.xrt.ts (dist/ on Node, Deno and Bun),
// so only type imports from host/.
import type { HostFunction, loadPlugin as LoadPlugin, parseConfig as ParseConfig } from '../../host/index.js';

export interface PluginOptionApi {
  parseConfig: typeof ParseConfig;
  loadPlugin: typeof LoadPlugin;
  /** test/fixtures/extism-vowels: exports count_vowels; imports the host function lookup. */
  vowels: Uint8Array;
  /** An absolute directory that exists, for a wasi preopen (read once at load). */
  dir: string;
}

interface Row {
  title: string;
  /** Options of the plugin entry (the config file) and of loadPlugin, the same object. */
  options: (dir: string) => Record<string, unknown>;
  /** Refused: where (below the plugin entry, or the options) and what both messages say. */
  refused?: { at: string; says: RegExp };
}

export const PLUGIN_OPTION_ROWS: readonly Row[] = [
  // limits: test/sandbox/limit-cases.ts, which also runs them through createSandbox
  // grants
  { title: 'grants: config keys and host functions', options: () => ({ grants: { configKeys: ['mode'], hostFunctions: ['lookup'], networkHosts: [], filePaths: [] } }) },
  { title: 'grants: file paths as a mapping (none)', options: () => ({ grants: { hostFunctions: ['lookup'], filePaths: {} } }) },
  { title: 'grants: a host list that is a string', options: () => ({ grants: { networkHosts: 'api.example.com' } }), refused: { at: 'grants.networkHosts', says: /expected an array of host names/ } },
  { title: 'grants: an empty host name', options: () => ({ grants: { networkHosts: [''] } }), refused: { at: 'grants.networkHosts[0]', says: /expected a host name/ } },
  { title: 'grants: a config key that is a number', options: () => ({ grants: { configKeys: [1] } }), refused: { at: 'grants.configKeys[0]', says: /expected a config key/ } },
  { title: 'grants: an empty host function name', options: () => ({ grants: { hostFunctions: [''] } }), refused: { at: 'grants.hostFunctions[0]', says: /expected a host function name/ } },
  { title: 'grants: file paths that are a string', options: () => ({ grants: { filePaths: '/data' } }), refused: { at: 'grants.filePaths', says: /expected an array of paths or an object mapping host paths to plugin paths/ } },
  { title: 'grants: an unknown grant', options: () => ({ grants: { network: ['x'] } }), refused: { at: 'grants', says: /grants\.network: unknown field/ } },
  { title: 'grants: not an object', options: () => ({ grants: ['lookup'] }), refused: { at: 'grants', says: /expected an object of grants/ } },
  // wasi
  { title: 'wasi: true', options: () => ({ wasi: true }) },
  { title: 'wasi: false', options: () => ({ wasi: false }) },
  { title: 'wasi: args, env and a preopen', options: (dir) => ({ wasi: { args: ['g', '--strict'], env: { LANG: 'C' }, preopens: { '/fixtures': dir } } }) },
  { title: 'wasi: a string', options: () => ({ wasi: 'yes' }), refused: { at: 'wasi', says: /expected true, false or \{ "args", "env", "preopens" \}/ } },
  { title: 'wasi: args that are a string', options: () => ({ wasi: { args: 'g' } }), refused: { at: 'wasi.args', says: /expected an array of strings/ } },
  { title: 'wasi: an argument with NUL', options: () => ({ wasi: { args: ['a\0b'] } }), refused: { at: 'wasi.args[0]', says: /expected a string without NUL/ } },
  { title: 'wasi: an env value that is a number', options: () => ({ wasi: { env: { K: 1 } } }), refused: { at: 'wasi.env.K', says: /expected a string, got 1/ } },
  { title: 'wasi: an env name with =', options: () => ({ wasi: { env: { 'A=B': 'v' } } }), refused: { at: 'wasi.env', says: /expected variable names without "=" or NUL, not "A=B"/ } },
  { title: 'wasi: a relative plugin path', options: (dir) => ({ wasi: { preopens: { fixtures: dir } } }), refused: { at: 'wasi.preopens', says: /expected absolute plugin paths \(starting with \/, without "\.\."\) as keys, not "fixtures"/ } },
  { title: 'wasi: a plugin path with ..', options: (dir) => ({ wasi: { preopens: { '/a/../b': dir } } }), refused: { at: 'wasi.preopens', says: /expected absolute plugin paths \(starting with \/, without "\.\."\) as keys, not "\/a\/\.\.\/b"/ } },
  { title: 'wasi: an empty host directory', options: () => ({ wasi: { preopens: { '/x': '' } } }), refused: { at: 'wasi.preopens["/x"]', says: /expected a host directory/ } },
  { title: 'wasi: an unknown field', options: () => ({ wasi: { argv: [] } }), refused: { at: 'wasi', says: /wasi\.argv: unknown field/ } },
  // failurePolicy
  { title: 'failurePolicy: per event', options: () => ({ failurePolicy: { PreToolUse: 'fail-open', PostToolUse: 'fail-closed' } }) },
  { title: 'failurePolicy: a policy that does not exist', options: () => ({ failurePolicy: { PreToolUse: 'open' } }), refused: { at: 'failurePolicy.PreToolUse', says: /expected "fail-closed" or "fail-open"/ } },
  { title: 'failurePolicy: an event that does not exist', options: () => ({ failurePolicy: { BeforeTool: 'fail-open' } }), refused: { at: 'failurePolicy', says: /failurePolicy\.BeforeTool: unknown field/ } },
  { title: 'failurePolicy: one policy for all', options: () => ({ failurePolicy: 'fail-open' }), refused: { at: 'failurePolicy', says: /expected an object of hook event → policy/ } },
  // isolation
  // No 'worker' row: the vowels plugin imports a host function, which a worker cannot call (refused at load).
  { title: 'isolation: in-thread', options: () => ({ isolation: 'in-thread' }) },
  { title: 'isolation: a mode that does not exist', options: () => ({ isolation: 'thread' }), refused: { at: 'isolation', says: /expected "in-thread" or "worker"/ } },
  // config
  { title: 'config: string values', options: () => ({ config: { mode: 'strict', empty: '' } }) },
  { title: 'config: a number value', options: () => ({ config: { mode: 1 } }), refused: { at: 'config.mode', says: /expected a string value/ } },
  { title: 'config: not an object', options: () => ({ config: ['mode'] }), refused: { at: 'config', says: /expected an object of string values/ } },
  // pluginName
  { title: 'pluginName: a slug', options: () => ({ pluginName: 'vowels.v2' }) },
  { title: 'pluginName: upper case and a space', options: () => ({ pluginName: 'Vowels Plugin' }), refused: { at: 'pluginName', says: /expected 1-64 lower-case letters, digits, "\.", "_" or "-", a letter or digit first/ } },
  { title: 'pluginName: empty', options: () => ({ pluginName: '' }), refused: { at: 'pluginName', says: /expected 1-64 lower-case letters/ } },
  { title: 'pluginName: a number', options: () => ({ pluginName: 7 }), refused: { at: 'pluginName', says: /expected a plugin name/ } },
  // allowExceptions
  { title: 'allowExceptions: true', options: () => ({ allowExceptions: true }) },
  { title: 'allowExceptions: a string', options: () => ({ allowExceptions: 'yes' }), refused: { at: 'allowExceptions', says: /expected true or false/ } },
  // an option that does not exist
  { title: 'an unknown option', options: () => ({ isolate: 'worker' }), refused: { at: '', says: /isolate: unknown field/ } },
];

export const lookup: HostFunction = { params: ['i64'], results: ['i64'], fn: (c) => c.store('') };
export const failure = (error: unknown) => ({ code: String((error as { code?: unknown }).code), message: String((error as Error).message) });
const TOOLS = [{ name: 'count_vowels' }];

/** The row's options over what the vowels plugin needs to load: a tool, and its host function granted. */
function withBase(options: Record<string, unknown>): Record<string, unknown> {
  const grants = options.grants;
  const merged = grants !== null && typeof grants === 'object' && !Array.isArray(grants) ? { hostFunctions: ['lookup'], ...grants } : grants ?? { hostFunctions: ['lookup'] };
  return { tools: TOOLS, ...options, grants: merged };
}

export type Verdict = { ok: true } | { ok: false; code: string; message: string };

/** The verdicts of parseConfig (a plugin entry with these options) and of loadPlugin (these options), as they are. */
export async function optionVerdicts(api: PluginOptionApi, given: Record<string, unknown>): Promise<{ config: Verdict; loaded: Verdict }> {
  const options = withBase(given);
  let config: Verdict;
  try {
    api.parseConfig({ plugins: [{ path: 'vowels.wasm', ...options }] }, { file: 'wasmhooks.json', dir: '/' });
    config = { ok: true };
  } catch (error) {
    config = { ok: false, ...failure(error) };
  }
  const loaded: Verdict = await api.loadPlugin({ bytes: api.vowels }, { ...options, hostFunctions: { lookup } } as never).then(
    async (plugin) => (await plugin.close(), { ok: true as const }),
    (error: unknown) => ({ ok: false as const, ...failure(error) }),
  );
  return { config, loaded };
}

/** Each row's verdict from parseConfig and from loadPlugin, as they are (for a before/after table). */
async function pluginOptionVerdicts(api: PluginOptionApi): Promise<Array<{ row: Row; config: Verdict; loaded: Verdict }>> {
  const out: Array<{ row: Row; config: Verdict; loaded: Verdict }> = [];
  for (const row of PLUGIN_OPTION_ROWS) out.push({ row, ...(await optionVerdicts(api, row.options(api.dir))) });
  return out;
}

/** What is wrong, row by row (empty when both entry points agree with the row and every refusal names its field). */
export async function pluginOptionProblems(api: PluginOptionApi): Promise<string[]> {
  const problems: string[] = [];
  for (const { row, config, loaded } of await pluginOptionVerdicts(api)) {
    const name = JSON.stringify(row.title);
    if (config.ok !== loaded.ok || config.ok !== !row.refused) {
      problems.push(`${name}: expected ${row.refused ? 'refused' : 'accepted'}; config ${config.ok ? 'accepted' : `refused (${config.message})`}, loadPlugin ${loaded.ok ? 'accepted' : `refused (${loaded.message})`}`);
      continue;
    }
    if (!row.refused || config.ok || loaded.ok) continue;
    const { at, says } = row.refused;
    // parseConfig: `wasmhooks.json: plugins[0].limits.fuel: expected …, got …`; an unknown field is named after the path.
    if (config.code !== 'INVALID_CONFIG' || !config.message.includes(`wasmhooks.json: plugins[0]${at && !at.startsWith('[') ? '.' : ''}${at}`) || !says.test(config.message)) {
      problems.push(`${name}: config said ${config.code}: ${config.message}`);
    }
    // loadPlugin: `invalid options for plugin <bytes>: limits.fuel: expected …, got …`, the same words after the path.
    if (loaded.code !== 'INVALID_OPTIONS' || (at !== '' && !loaded.message.includes(`plugin <bytes>: ${at}`)) || !says.test(loaded.message)) {
      problems.push(`${name}: loadPlugin said ${loaded.code}: ${loaded.message}`);
    }
  }
  return problems;
}
