/** Options of `loadPlugin`, validated with zod at the edge. */
import { z } from 'zod';
import { issueLines } from '../config/issues.js';
import { WasmhooksError } from '../errors.js';
import { HOOK_EVENT_NAMES } from '../hooks/types.js';
import { lazy } from '../lazy.js';
import type { HostFunctions } from '../sandbox/host-functions.js';
import { limitsSchema, objectOf } from '../sandbox/limits-schema.js';
import { wasiOptionsSchema } from '../sandbox/wasi/options.js';
import { extismToolsSchema } from './extism-tools.js';
import { grantsSchema, resolveGrants } from './grants.js';
import { PLUGIN_NAME_PATTERN, PLUGIN_NAME_RULE } from './identity.js';

/**
 * Every option a person writes, wherever: `loadPlugin`'s options (below) and a `wasmhooks.json` plugin entry
 * (config/schema.ts) are these schemas, so the two accept the same values and say the same thing about a bad
 * one. None has a default: the loader applies them (pluginOptionsSchema), a parsed config keeps what was written.
 * Messages say what was expected; both callers add the field's path and the value (config/issues.ts).
 */
export const pluginOptionFields = lazy(() => ({
  // The sandbox's own limits schema (sandbox/limits-schema.ts), without its Infinity: the same rules as createSandbox.
  limits: limitsSchema({ unbounded: false }),
  isolation: z
    .enum(['in-thread', 'worker'], { error: 'expected "in-thread" or "worker"' })
    .describe('in-thread (default), or worker: off the caller\'s thread (slower, never blocks the app).'),
  grants: grantsSchema(),
  config: z
    .record(z.string(), z.string({ error: 'expected a string value' }), objectOf('an object of string values ({ "key": "value" })'))
    .describe('Values the plugin may read (only granted keys).'),
  allowExceptions: z
    .boolean({ error: 'expected true or false' })
    .describe('Accept a plugin that uses wasm exception handling (refused by default; every handler then re-raises a stop).'),
  failurePolicy: z
    .partialRecord(
      z.enum(HOOK_EVENT_NAMES, { error: `expected a hook event (${HOOK_EVENT_NAMES.join(', ')})` }),
      z.enum(['fail-closed', 'fail-open'], { error: 'expected "fail-closed" or "fail-open"' }),
      objectOf('an object of hook event → policy ({ "PreToolUse": "fail-closed" })'),
    )
    .describe('Failure policy per event, overriding the plugin\'s own.'),
  wasi: wasiOptionsSchema(),
  tools: extismToolsSchema(),
  pluginName: z
    .string({ error: 'expected a plugin name' })
    .regex(PLUGIN_NAME_PATTERN, { error: `expected ${PLUGIN_NAME_RULE}` })
    .describe('Name of a plugin used through `tools` (default: its file name).'),
}));

// Built at the first load that passes options (see lazy.ts): `loadPlugin(source)` alone never needs it.
const pluginOptionsSchema = lazy(() => {
  const o = pluginOptionFields();
  return z
    .object(
      {
        /** Per-call limits; see DEFAULT_LIMITS. */
        limits: o.limits.default({}),
        /** `worker` runs the plugin off the caller's thread (slower, never blocks the app). */
        isolation: o.isolation.default('in-thread'),
        /** What the plugin may reach. Nothing by default. */
        grants: o.grants.optional().transform(resolveGrants),
        /** Config values; the plugin sees only the keys in `grants.configKeys`. */
        config: o.config.default({}),
        /**
         * Accept a plugin that uses wasm exception handling (refused by default:
         * a handler could catch the sandbox's stop; with this, every handler re-raises it).
         */
        allowExceptions: o.allowExceptions.default(false),
        /** Override the failure policy of the plugin's bindings, per event. */
        failurePolicy: o.failurePolicy.default({}),
        /** WASI preview1: off unless given (see `WasiOptions`); the object form is a grant. */
        wasi: o.wasi.optional(),
        /** Host functions on offer; the plugin gets those named in `grants.hostFunctions`. Not in a config file: code. */
        hostFunctions: z
          .custom<HostFunctions>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { error: 'expected an object of host functions' })
          .optional(),
        /**
         * Use a plugin that does not speak the wasmhooks protocol (no `describe`)
         * through these exports, as tools. Its name is `pluginName` (default: the file name).
         */
        tools: o.tools.optional(),
        /** The plugin's name, for a plugin used through `tools` (a protocol plugin names itself). */
        pluginName: o.pluginName.optional(),
      },
      objectOf('an object of plugin options'),
    )
    .strict();
});

/**
 * @example
 * await loadPlugin({ path: 'guard.wasm' }, { limits: { timeoutMs: 50 }, grants: { configKeys: ['mode'] }, config: { mode: 'strict' } })
 */
export type PluginOptions = z.input<ReturnType<typeof pluginOptionsSchema>>;
export type ResolvedPluginOptions = z.output<ReturnType<typeof pluginOptionsSchema>>;

/**
 * No options: the schema's defaults, what parsing `{}` gives (test/plugins/options-defaults.test.ts
 * checks they agree). There is no input to check, and a guard loaded by name then needs none of
 * these schemas: the most common load, and part of every cold start.
 */
const defaults = (): ResolvedPluginOptions => ({
  limits: {},
  isolation: 'in-thread',
  grants: resolveGrants(undefined),
  config: {},
  allowExceptions: false,
  failurePolicy: {},
});

export function parsePluginOptions(origin: string, options: unknown): ResolvedPluginOptions {
  if (options === undefined || options === null) return defaults();
  // Once per load: zod's compiled fast path (a `new Function` per object schema) would cost more than it saves.
  const parsed = pluginOptionsSchema().safeParse(options, { jitless: true });
  if (!parsed.success) {
    // The config file's wording (config/issues.ts): the field's path, what was expected and what it got.
    throw new WasmhooksError('INVALID_OPTIONS', `invalid options for plugin ${origin}: ${issueLines(parsed.error.issues, options).join('; ')}`);
  }
  return parsed.data;
}
