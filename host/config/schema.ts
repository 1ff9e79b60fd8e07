/**
 * The `wasmhooks.json` schema. Error messages are written for people: each
 * says what was expected, and the loader adds the file, the path inside it
 * and the value it got. `schema/wasmhooks.schema.json` is generated from
 * this (see `npm run gen:schema`).
 */
import { z } from 'zod';
import { mcpServersSchema } from '../mcp/config.js';
import { matcherCheck } from '../hooks/matcher.js';
import { shellHookSpecSchema } from '../shell/spec.js';
import { trustedKeysSchema } from '../plugins/signature.js';
import { pluginOptionFields } from '../plugins/options.js';
import { SHA256_PIN, SHA256_PIN_RULE } from '../sandbox/digest.js';
import { positiveInt } from '../sandbox/limits-schema.js';

const text = (what = 'a string') => z.string({ error: `expected ${what}` });
const nonEmpty = (what: string) => text(what).min(1, { error: `expected ${what}` });
const regex = () => text('a tool-name regex').superRefine(matcherCheck);

/**
 * The schemas, built at first use (`configSchemas()`): only a config file needs them, and building
 * them took about 8 ms of a cold start (`import 'wasmhooks'`) on Node, where a guard never reads one.
 */
function build() {
  const o = pluginOptionFields();
  const sha256 = text('a sha256 digest').regex(SHA256_PIN, { error: `expected ${SHA256_PIN_RULE}` });

  const pluginCommon = {
    sha256: sha256.optional().describe('Pin: the plugin is refused if its bytes hash differently. Required for a url.'),
    // loadPlugin's option schemas themselves (plugins/options.ts): a config file and loadPlugin accept the same
    // values, with the same messages. Only the loader applies their defaults; a parsed config keeps what was written.
    limits: o.limits.optional(),
    grants: o.grants.optional(),
    config: o.config.optional(),
    failurePolicy: o.failurePolicy.optional(),
    isolation: o.isolation.optional(),
    wasi: o.wasi.optional(),
    tools: o.tools.optional(),
    pluginName: o.pluginName.optional(),
    allowExceptions: o.allowExceptions.optional(),
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

  return { pluginEntrySchema, hookModule, configSchema };
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
