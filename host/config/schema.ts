/**
 * The `wasmhooks.json` schema. Error messages are written for people: each
 * says what was expected, and the loader adds the file, the path inside it
 * and the value it got. `schema/wasmhooks.schema.json` is generated from
 * this (see `npm run gen:schema`).
 */
import { z } from 'zod';
import { mcpServersSchema } from '../mcp/config.js';
import { HOOK_EVENT_NAMES } from '../hooks/types.js';
import { matcherCheck } from '../hooks/matcher.js';
import { shellHookSpecSchema } from '../shell/spec.js';
import { trustedKeysSchema } from '../plugins/signature.js';
import { PLUGIN_NAME_PATTERN, PLUGIN_NAME_RULE } from '../plugins/identity.js';
import { extismToolsSchema } from '../plugins/extism-tools.js';

const positiveInt = () =>
  z
    .number({ error: 'expected a positive integer' })
    .int({ error: 'expected a positive integer' })
    .positive({ error: 'expected a positive integer' });
const text = (what = 'a string') => z.string({ error: `expected ${what}` });
const nonEmpty = (what: string) => text(what).min(1, { error: `expected ${what}` });
const regex = () => text('a tool-name regex').superRefine(matcherCheck);
const stringList = (what: string) => z.array(nonEmpty(what), { error: `expected an array of ${what}s` });

/**
 * The schemas, built at first use (`configSchemas()`): only a config file needs them, and building
 * them took about 8 ms of a cold start (`import 'wasmhooks'`) on Node, where a guard never reads one.
 */
function build() {
  const failurePolicy = z.enum(['fail-closed', 'fail-open'], { error: 'expected "fail-closed" or "fail-open"' });
  const eventName = z.enum(HOOK_EVENT_NAMES, { error: `expected a hook event (${HOOK_EVENT_NAMES.join(', ')})` });
  const sha256 = text('a sha256 digest').regex(/^[0-9a-fA-F]{64}$/, { error: 'expected a sha256 digest (64 hex characters)' });

  /** Per-call limits; absent fields take the host's defaults. */
  const configLimitsSchema = z
    .object({
      timeoutMs: positiveInt().describe('Wall-clock deadline of one call, in ms.'),
      fuel: positiveInt().describe('Fuel units one call may burn (roughly: wasm instructions).'),
      maxMemoryPages: positiveInt().max(65536, { error: 'expected at most 65536 (4 GiB)' }).describe('Memory cap in 64 KiB pages.'),
      maxInputBytes: positiveInt(),
      maxOutputBytes: positiveInt(),
      maxVarBytes: positiveInt().describe('Bytes of Extism variables (keys and values) one instance may hold.'),
      maxVars: positiveInt().describe('Number of Extism variables one instance may hold.'),
      maxLogBytes: positiveInt().describe('Log text delivered per call; the rest is dropped and counted.'),
      maxProgressBytes: positiveInt().describe('Progress text one call may report; past it the call fails with OUTPUT_TOO_LARGE.'),
      maxTableElements: positiveInt()
        .max(10_000_000, { error: 'expected at most 10000000' })
        .describe('Cap on the elements of all the plugin\'s tables together (host memory, ~16 bytes each).'),
    })
    .partial()
    .strict();

  const grants = z
    .object({
      networkHosts: stringList('host name').describe('Hosts the plugin may reach; `*.example.com` matches subdomains.'),
      filePaths: z
        .union([stringList('path'), z.record(z.string(), text('a path'))], {
          error: 'expected an array of paths or an object mapping host paths to plugin paths',
        })
        .describe('Host paths the plugin may read (relative paths resolve against this file\'s folder).'),
      configKeys: stringList('config key').describe('Config keys the plugin may read.'),
      hostFunctions: stringList('host function name').describe(
        'Embedder host functions (extism:host/user) the plugin may import; the embedding application provides them.',
      ),
    })
    .partial()
    .strict();

  const wasi = z
    .union(
      [
        z.boolean(),
        z
          .object({
            args: z.array(text('an argument'), { error: 'expected an array of strings' }).describe('argv as the plugin sees it (none by default).'),
            env: z.record(z.string(), text('a string value')).describe('Environment variables (none by default).'),
            preopens: z
              .record(z.string(), nonEmpty('a host directory'))
              .refine((dirs) => Object.keys(dirs).every((p) => p.startsWith('/')), {
                error: 'expected absolute plugin paths (starting with /) as keys',
              })
              .describe('Read-only directories: plugin path → host directory (relative to this file\'s folder), read once at load.'),
          })
          .partial()
          .strict(),
      ],
      { error: 'expected true, false or { "args", "env", "preopens" }' },
    )
    .describe('WASI preview1, off by default. true: clocks, random, stdout/stderr as plugin logs, no files, args or env.');

  const pluginCommon = {
    sha256: sha256.optional().describe('Pin: the plugin is refused if its bytes hash differently. Required for a url.'),
    limits: configLimitsSchema.optional(),
    grants: grants.optional(),
    config: z.record(z.string(), text('a string value')).optional().describe('Values the plugin may read (only granted keys).'),
    failurePolicy: z
      .partialRecord(eventName, failurePolicy)
      .optional()
      .describe('Failure policy per event, overriding the plugin\'s own.'),
    isolation: z.enum(['in-thread', 'worker'], { error: 'expected "in-thread" or "worker"' }).optional(),
    wasi: wasi.optional(),
    // The loadPlugin option's schema itself: a config file and loadPlugin accept the same tools, with the same messages.
    tools: extismToolsSchema().optional(),
    pluginName: text('a plugin name')
      .regex(PLUGIN_NAME_PATTERN, { error: `expected ${PLUGIN_NAME_RULE}` })
      .optional()
      .describe('Name of a plugin used through `tools` (default: its file name).'),
    allowExceptions: z
      .boolean({ error: 'expected true or false' })
      .optional()
      .describe('Accept a plugin that uses wasm exception handling (refused by default; every handler then re-raises a stop).'),
    signature: nonEmpty('a path or URL of a .sig file').optional().describe('Where the plugin\'s signature is (default: the plugin\'s path or URL + ".sig").'),
  };

  /** One plugin: exactly one of `name`, `path` and `url`; a `url` needs a `sha256` pin. */
  const pluginEntrySchema = z
    .object({
      name: nonEmpty('a first-party plugin name').optional().describe('A first-party plugin shipped with wasmhooks (guard-shell, path-guard, secret-redactor, budget, require-verification, calc), pinned by the package.'),
      path: nonEmpty('a path to a .wasm file').optional().describe('A .wasm file; relative paths resolve against this file\'s folder.'),
      url: text('a URL').url({ error: 'expected an http(s) URL' }).optional().describe('A remote .wasm file; needs `sha256`.'),
      ...pluginCommon,
    }, { error: 'expected a plugin object ({ "name": … }, { "path": … } or { "url": …, "sha256": … })' })
    .strict()
    .superRefine((entry, ctx) => {
      const given = (['name', 'path', 'url'] as const).filter((k) => entry[k] !== undefined);
      if (given.length === 0) {
        ctx.addIssue({ code: 'custom', message: 'expected "name", "path" or "url"', input: entry });
      } else if (given.length > 1) {
        ctx.addIssue({ code: 'custom', message: `expected one of "name", "path" or "url", not ${given.map((k) => `"${k}"`).join(' and ')}`, input: entry });
      } else if (entry.url !== undefined && entry.sha256 === undefined) {
        ctx.addIssue({ code: 'custom', path: ['sha256'], message: 'a plugin loaded from a URL needs a sha256 pin', input: entry });
      }
    });

  const hookModule = z.union(
    [
      nonEmpty('a path to an ES module'),
      z.object({ module: nonEmpty('a path to an ES module'), export: nonEmpty('an export name').optional() }).strict(),
    ],
    { error: 'expected a module path or { "module": …, "export": … }' },
  );

  const configSchema = z
    .object({
      $schema: z.string().optional(),
      model: nonEmpty('a model id').optional().describe('`scripted`, `openai:<model>` or `anthropic:<model>`.'),
      systemPrompt: text().optional(),
      maxTurns: positiveInt().optional().describe('Model calls per prompt before the run ends with error_max_turns.'),
      maxMessages: positiveInt().optional().describe('Messages a session\'s conversation may hold (default 10000); past it a prompt ends with CONVERSATION_TOO_LARGE.'),
      maxConversationChars: positiveInt()
        .optional()
        .describe('Characters of text a session\'s conversation may hold (default 32000000); outputs past it are dropped, then CONVERSATION_TOO_LARGE.'),
      modelTimeoutMs: positiveInt()
        .optional()
        .describe('Longest one model call may take, request to message.end, in ms (default 600000); past it the prompt ends with MODEL_TIMEOUT.'),
      permissionMode: z
        .enum(['default', 'acceptEdits', 'bypassPermissions', 'dontAsk'], {
          error: 'expected "default", "acceptEdits", "bypassPermissions" or "dontAsk"',
        })
        .optional(),
      allowedTools: z
        .array(regex(), { error: 'expected an array of tool-name regexes' })
        .optional()
        .describe('Tools (regex on the whole name) that run without asking.'),
      disallowedTools: z
        .array(regex(), { error: 'expected an array of tool-name regexes' })
        .optional()
        .describe('Tools (regex on the whole name) that never run, whatever a hook says.'),
      plugins: z.array(pluginEntrySchema, { error: 'expected an array of plugins' }).optional(),
      trustedKeys: trustedKeysSchema().optional().describe('Ed25519 keys whose plugin signatures are trusted: { "<key id>": { "publicKey": "<base64>", "expires"?: "<ISO date>" } }.'),
      requireSignature: z.boolean({ error: 'expected true or false' }).optional().describe('Refuse plugins (other than the first-party ones, pinned by the package) without a valid signature by a trusted key.'),
      hookModules: z
        .array(hookModule, { error: 'expected an array of module paths' })
        .optional()
        .describe('ES modules exporting JS hooks (`export default { PreToolUse: [{ matcher, hooks: [fn] }] }`).'),
      shellHooks: z.array(shellHookSpecSchema(), { error: 'expected an array of shell hooks' }).optional(),
      mcpServers: mcpServersSchema()
        .optional()
        .describe('MCP servers whose tools join as mcp__<server>__<tool> (the .mcp.json shape: { "name": { "command", "args", "env" } } or { "name": { "url", "headers" } }).'),
    })
    .strict();

  return { configLimitsSchema, pluginEntrySchema, hookModule, configSchema };
}

let built: ReturnType<typeof build> | undefined;

/** The config file's schemas (built once, at the first call). */
export function configSchemas(): ReturnType<typeof build> {
  return (built ??= build());
}

type Schemas = ReturnType<typeof build>;

/** `wasmhooks.json`, as written. */
export type WasmhooksConfigFile = z.input<Schemas['configSchema']>;
export type ConfigFile = z.output<Schemas['configSchema']>;
export type PluginEntry = z.output<Schemas['pluginEntrySchema']>;
export type HookModuleEntry = z.output<Schemas['hookModule']>;

/** The JSON schema published for editors. */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configSchemas().configSchema, { io: 'input', unrepresentable: 'any' }) as unknown as Record<string, unknown> & {
    properties: { plugins: { items: Record<string, unknown> } };
  };
  // The name/path/url rule is a zod refinement, which JSON Schema cannot see; spell it out for editors.
  schema.properties.plugins.items.oneOf = [{ required: ['name'] }, { required: ['path'] }, { required: ['url', 'sha256'] }];
  return {
    ...schema,
    title: 'wasmhooks.json',
    description: 'Configuration of the wasmhooks host: plugins, hooks, model and permissions.',
  };
}
