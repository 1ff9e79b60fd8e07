/** Options of `loadPlugin`, validated with zod at the edge. */
import { z } from 'zod';
import { WasmhooksError } from '../errors.js';
import { HOOK_EVENT_NAMES } from '../hooks/types.js';
import { lazy } from '../lazy.js';
import type { HostFunctions } from '../sandbox/host-functions.js';
import { wasiOptionsSchema } from '../sandbox/wasi/options.js';
import { extismToolsSchema } from './extism-tools.js';
import { grantsSchema } from './grants.js';
import { PLUGIN_NAME_PATTERN, PLUGIN_NAME_RULE } from './identity.js';

/** Per-call limits (each optional; see DEFAULT_LIMITS), built at first use as every schema here (see lazy.ts). */
export const limitsSchema = lazy(() => {
  const positiveInt = z.number().int().positive();
  return z
    .object({
      timeoutMs: positiveInt,
      fuel: positiveInt,
      maxMemoryPages: positiveInt.max(65536),
      maxInputBytes: positiveInt,
      maxOutputBytes: positiveInt,
      maxVarBytes: positiveInt,
      maxVars: positiveInt,
      maxLogBytes: positiveInt,
      maxProgressBytes: positiveInt,
      maxTableElements: z.number().int().nonnegative().max(10_000_000),
    })
    .partial()
    .strict();
});

const noGrants = () => ({ networkHosts: [], filePaths: [], configKeys: [], hostFunctions: [] });

// Built at the first load that passes options (see lazy.ts): `loadPlugin(source)` alone never needs it.
const pluginOptionsSchema = lazy(() =>
  z
    .object({
      /** Per-call limits; see DEFAULT_LIMITS. */
      limits: limitsSchema().default({}),
      /** `worker` runs the plugin off the caller's thread (slower, never blocks the app). */
      isolation: z.enum(['in-thread', 'worker']).default('in-thread'),
      /** What the plugin may reach. Nothing by default. */
      grants: grantsSchema().default(noGrants()),
      /** Config values; the plugin sees only the keys in `grants.configKeys`. */
      config: z.record(z.string(), z.string()).default({}),
      /**
       * Accept a plugin that uses wasm exception handling (refused by default:
       * a handler could catch the sandbox's stop; with this, every handler re-raises it).
       */
      allowExceptions: z.boolean().default(false),
      /** Override the failure policy of the plugin's bindings, per event. */
      failurePolicy: z.partialRecord(z.enum(HOOK_EVENT_NAMES), z.enum(['fail-closed', 'fail-open'])).default({}),
      /** WASI preview1: off unless given (see `WasiOptions`); the object form is a grant. */
      wasi: wasiOptionsSchema().optional(),
      /** Host functions on offer; the plugin gets those named in `grants.hostFunctions`. */
      hostFunctions: z.custom<HostFunctions>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'must be an object of host functions').optional(),
      /**
       * Use a plugin that does not speak the wasmhooks protocol (no `describe`)
       * through these exports, as tools. Its name is `pluginName` (default: the file name).
       */
      tools: extismToolsSchema().optional(),
      /** The plugin's name, for a plugin used through `tools` (a protocol plugin names itself). */
      pluginName: z.string().regex(PLUGIN_NAME_PATTERN, `must be ${PLUGIN_NAME_RULE}`).optional(),
    })
    .strict(),
);

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
  grants: noGrants(),
  config: {},
  allowExceptions: false,
  failurePolicy: {},
});

export function parsePluginOptions(origin: string, options: unknown): ResolvedPluginOptions {
  if (options === undefined || options === null) return defaults();
  // Once per load: zod's compiled fast path (a `new Function` per object schema) would cost more than it saves.
  const parsed = pluginOptionsSchema().safeParse(options, { jitless: true });
  if (!parsed.success) {
    throw new WasmhooksError('INVALID_OPTIONS', `invalid options for plugin ${origin}: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}
