/**
 * Validating `SandboxOptions` at the edge: impossible values are refused with
 * a message naming the option, before anything is compiled.
 */
import { z } from 'zod';
import { issueLines } from '../config/issues.js';
import { WasmhooksError } from '../errors.js';
import { lazy } from '../lazy.js';
import { DEFAULT_QUARANTINE } from './health.js';
import { validateHostFunctions, type HostFunctions } from './host-functions.js';
import { limitsSchema, positiveInt } from './limits-schema.js';
import { DEFAULT_LIMITS, type HostCallbacks, type Limits, type QuarantinePolicy, type SandboxOptions } from './types.js';

/** The schema of `SandboxOptions` (exported for test/sandbox/sandbox.options-fast.test.ts). */
export const sandboxOptionsSchema = lazy(() => {
  // Built at the first sandbox (see lazy.ts): `import 'wasmhooks'` does not pay for it.
  return z.object({
    // The one limits schema (limits-schema.ts), loadPlugin's and the config file's, plus Infinity for timeoutMs and fuel.
    limits: limitsSchema({ unbounded: true }).optional(),
    isolation: z.enum(['in-thread', 'worker']).optional(),
    config: z.record(z.string(), z.string()).optional(),
    allowedHosts: z.array(z.string()).max(0, 'network grants are not supported by the sandbox yet').optional(),
    allowedPaths: z
      .record(z.string(), z.string())
      .refine((paths) => Object.keys(paths).length === 0, 'file grants are not supported by the sandbox yet')
      .optional(),
    name: z.string().optional(),
    // Checked in full by prepareGuest (the object form reads directories).
    wasi: z.union([z.boolean(), z.object({}).passthrough()]).optional(),
    allowExceptions: z.boolean().optional(),
    metering: z.enum(['fast', 'exact']).optional(),
    quarantine: z
      .object({ maxConsecutiveFailures: positiveInt(), backoffMs: z.number().nonnegative(), maxBackoffMs: z.number().nonnegative() })
      .partial()
      .optional(),
  });
});

/**
 * What one sandbox may add to the host's resident memory beyond its caps:
 * the engine's own structures, compiled code, one variable record per var,
 * transient copies of a message on its way out, and garbage the runtime has
 * not collected yet (Bun's collector is lazy: up to ~95 MiB measured after a
 * few hundred thousand host calls). docs/sandbox.md ("Host memory") states
 * the bound and the hostile tests check it on every runtime.
 */
export const HOST_MEMORY_SLACK_BYTES = 128 * 1024 * 1024;

/**
 * The most host memory one sandbox's calls can hold, given its limits: its
 * linear memory and Extism's host-side blocks (each capped at
 * `maxMemoryPages`, and one refused block of up to that size until it is
 * collected: Extism allocates before it checks), its variables, one output,
 * one call's progress and logs (UTF-16: two bytes a character), its tables
 * (`maxTableElements`, at most 16 bytes an element), plus
 * `HOST_MEMORY_SLACK_BYTES`. A worker's own runtime (tens of MiB) comes on
 * top, paid once when the sandbox starts.
 */
export function hostMemoryBound(limits: Readonly<Limits>): number {
  const pages = limits.maxMemoryPages * 65_536;
  return (
    3 * pages + 16 * limits.maxTableElements + limits.maxVarBytes + limits.maxOutputBytes + 2 * limits.maxProgressBytes + 2 * limits.maxLogBytes + HOST_MEMORY_SLACK_BYTES
  );
}

/**
 * Everything `createSandbox` uses of its options, each read once from the
 * caller's object: nothing after validation reads that object again (a
 * getter or proxy could pass the check with one value and hand over another).
 */
export interface ResolvedOptions {
  limits: Readonly<Limits>;
  quarantine: Readonly<QuarantinePolicy>;
  isolation: 'in-thread' | 'worker';
  name: string;
  allowExceptions: boolean;
  metering: 'fast' | 'exact';
  /** The checked copy of `config`; undefined when none or empty. */
  config: Readonly<Record<string, string>> | undefined;
  /** The checked `wasi` option (a copy; resolveWasi reads its parts once more, checking them in full). */
  wasi: SandboxOptions['wasi'];
  /** A checked copy (validateHostFunctions). */
  hostFunctions: HostFunctions;
  host: Readonly<HostCallbacks>;
  onHealth: SandboxOptions['onHealth'];
  signal: AbortSignal | undefined;
}

/** The keys the schema reads (test/sandbox/sandbox.options-fast.test.ts checks that they are its shape's). */
export const SCHEMA_KEYS = ['limits', 'isolation', 'config', 'allowedHosts', 'allowedPaths', 'name', 'wasi', 'allowExceptions', 'metering', 'quarantine'] as const;
/** The keys of `limits` the schema reads. */
export const LIMIT_KEYS = Object.keys(DEFAULT_LIMITS) as (keyof Limits)[];

const emptyRecord = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && [Object.prototype, null].includes(Object.getPrototypeOf(v) as object | null) && Object.keys(v).length === 0;

type Checked = Pick<SandboxOptions, 'isolation' | 'name' | 'allowExceptions'>;

/**
 * Options with nothing in them to check (what `loadPlugin` passes for a plugin loaded without
 * options, part of every cold start): a name, an isolation, `allowExceptions`, and no limits or
 * config; keys the schema does not read (callbacks, host functions) are not its to check either.
 * The schema would accept them as they are, so it is not built for them; anything else it
 * reads (test/sandbox/sandbox.options-fast.test.ts checks that both read these alike). Gives the
 * values it checked, each read once (as the schema's copy is): a getter or proxy read again
 * could answer with limits or an isolation nobody checked.
 */
function nothingToCheck(options: unknown): Checked | undefined {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return undefined;
  const o = options as Record<(typeof SCHEMA_KEYS)[number], unknown>;
  const checked: Checked = {};
  for (const key of SCHEMA_KEYS) {
    const value = o[key];
    if (value === undefined) continue;
    switch (key) {
      case 'name':
        if (typeof value !== 'string') return undefined;
        checked.name = value;
        break;
      case 'isolation':
        if (value !== 'in-thread' && value !== 'worker') return undefined;
        checked.isolation = value;
        break;
      case 'allowExceptions':
        if (typeof value !== 'boolean') return undefined;
        checked.allowExceptions = value;
        break;
      case 'limits':
        if (!emptyRecord(value) || LIMIT_KEYS.some((k) => (value as Record<string, unknown>)[k] !== undefined)) return undefined;
        break;
      case 'config':
        if (!emptyRecord(value)) return undefined;
        break;
      default:
        return undefined;
    }
  }
  return checked;
}

/** The keys `createSandbox` reads besides the schema's (callbacks and host functions, checked on their own). */
const OTHER_KEYS = ['host', 'hostFunctions', 'onHealth', 'signal'] as const;

/**
 * One reading of every key the sandbox uses (own or inherited, as the schema reads them), into a
 * plain object both the fast path and the schema then read. Anything but an object is left as it
 * is, for the schema to refuse.
 */
function readOnce(options: unknown): unknown {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return options;
  const copy: Record<string, unknown> = {};
  for (const key of [...SCHEMA_KEYS, ...OTHER_KEYS]) {
    const value: unknown = (options as Record<string, unknown>)[key];
    if (value !== undefined) copy[key] = value;
  }
  return copy;
}

export function resolveOptions(given: SandboxOptions): ResolvedOptions {
  const options = readOnce(given) as SandboxOptions;
  let o: Pick<SandboxOptions, 'limits' | 'quarantine' | 'isolation' | 'name' | 'allowExceptions' | 'config' | 'wasi' | 'metering'> | undefined =
    nothingToCheck(options);
  if (!o) {
    // Once per sandbox: zod's compiled fast path (a `new Function` per object schema) would cost more than it saves.
    const parsed = sandboxOptionsSchema().safeParse(options, { jitless: true });
    if (!parsed.success) {
      // loadPlugin's and the config file's wording (config/issues.ts): the option's path, what was expected, what it got.
      throw new WasmhooksError('INVALID_OPTIONS', `invalid sandbox options: ${issueLines(parsed.error.issues, options).join('; ')}`);
    }
    o = parsed.data;
  }
  // The keys the schema does not check (callbacks, host functions), each read once here.
  const { host, hostFunctions, onHealth, signal } = options as Partial<Record<(typeof OTHER_KEYS)[number], unknown>>;
  return {
    limits: Object.freeze({ ...DEFAULT_LIMITS, ...o.limits }),
    quarantine: Object.freeze({ ...DEFAULT_QUARANTINE, ...o.quarantine }),
    isolation: o.isolation ?? 'in-thread',
    name: o.name ?? 'plugin',
    allowExceptions: o.allowExceptions ?? false,
    metering: o.metering ?? 'fast',
    config: o.config && Object.keys(o.config).length > 0 ? Object.freeze({ ...o.config }) : undefined,
    wasi: o.wasi,
    hostFunctions: validateHostFunctions(hostFunctions),
    host: Object.freeze(hostCallbacks(host)),
    onHealth: callback(onHealth, 'onHealth'),
    signal: abortSignal(signal),
  };
}

function abortSignal(value: unknown): AbortSignal | undefined {
  if (value === undefined || value instanceof AbortSignal) return value;
  throw new WasmhooksError('INVALID_OPTIONS', 'invalid sandbox options: signal must be an AbortSignal');
}

function callback<F>(value: unknown, what: string): F | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') throw new WasmhooksError('INVALID_OPTIONS', `invalid sandbox options: ${what} must be a function`);
  return value as F;
}

function hostCallbacks(host: unknown): HostCallbacks {
  if (host === undefined) return {};
  if (typeof host !== 'object' || host === null) throw new WasmhooksError('INVALID_OPTIONS', 'invalid sandbox options: host must be an object of callbacks');
  const { onLog, onProgress } = host as Record<'onLog' | 'onProgress', unknown>;
  const out: HostCallbacks = {};
  const log = callback<HostCallbacks['onLog']>(onLog, 'host.onLog');
  const progress = callback<HostCallbacks['onProgress']>(onProgress, 'host.onProgress');
  if (log) out.onLog = log;
  if (progress) out.onProgress = progress;
  return out;
}
