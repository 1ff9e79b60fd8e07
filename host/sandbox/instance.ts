/**
 * Building one live instance of an engine's compiled module: the Extism
 * plugin with our host functions, its direct caller (extism-call.ts), its
 * fuel global and memory, and its own initialisation run under the meter of
 * the call (or `prepare`) that builds it. A start function or constructor
 * that stopped, even one that caught its stop, fails the build.
 */
import type { Plugin } from '@extism/extism';
import { SILENT, createPlugin, deferredFetch } from './extism.js';
import { HostRefusal, classify } from './failures.js';
import { hostImports, type ImportScope } from './engine-imports.js';
import type { GuestImports } from './guest-imports.js';
import { directCaller, probeContext, type DirectCaller } from './extism-call.js';
import { FUEL_GLOBAL, REFUEL_MODULE } from './meter.js';
import type { PluginFailure } from '../failure.js';
import type { Limits } from './types.js';

/** A built instance: what the engine keeps until it discards it. */
export interface Instance {
  plugin: Plugin;
  /** The plugin's calls without Extism's promise wrapper, when this Extism build allows it. */
  direct: DirectCaller | null;
  fuel: WebAssembly.Global | null;
  memory: WebAssembly.Memory | null;
}

export interface InstanceOptions {
  limits: Readonly<Limits>;
  config?: Record<string, string>;
  onLog?: (level: string, message: string) => void;
}

type MeterImports = Parameters<typeof hostImports>[1];

/**
 * Builds an instance of `module`, or the failure that stopped it (the
 * plugin then closed). `scope.vars` starts empty; `scope.stop` records a
 * stop raised by any host function while the instance is built.
 */
export async function buildInstance(
  module: WebAssembly.Module,
  options: InstanceOptions,
  scope: ImportScope,
  guest: GuestImports,
  meterImports: MeterImports,
  /** Hands the running meter the instance's fuel global, before any of the module's code runs (guest.start). */
  attach: (fuel: WebAssembly.Global | null) => void,
): Promise<Instance | PluginFailure> {
  scope.vars.clear();
  let plugin: Plugin;
  const functions = hostImports(scope, meterImports, guest.functions());
  // An address Extism's own accessor refuses ends the call, finally (a TRAP the plugin cannot catch and go on).
  const context = probeContext(functions, REFUEL_MODULE, (name, error) => {
    const refusal = new HostRefusal('TRAP', `the plugin called ${name} with an address Extism refuses (an invalid host call): ${error instanceof Error ? error.message : String(error)}`);
    scope.stop ??= refusal;
    return refusal;
  });
  try {
    plugin = await createPlugin(
      // The module itself, not a manifest: Extism then skips its `instanceof Response` check.
      module,
      {
        useWasi: false,
        fetch: deferredFetch,
        functions,
        config: options.config ?? {},
        memory: { maxPages: options.limits.maxMemoryPages },
        // Plugin log lines come through our own log_* imports; what Extism
        // logs itself is about failures we report as failures.
        logger: SILENT,
        // What the plugin reads from get_log_level: everything, if anyone listens.
        logLevel: options.onLog ? 'trace' : 'silent',
      },
    );
  } catch (error) {
    return scope.stop ? classify(scope.stop, 'load') : classify(error, 'load');
  }
  // A start function that caught its stop still stopped.
  if (scope.stop) {
    await plugin.close().catch(() => undefined);
    return classify(scope.stop, 'load');
  }
  const instance = await plugin.getInstance();
  const global = instance.exports[FUEL_GLOBAL];
  const fuel = global instanceof WebAssembly.Global ? global : null;
  const memory = instance.exports.memory;
  // The module's own initialisation (its start function, wasi-libc constructors) runs under this meter,
  // which reads the overdraft of each refuel from the fuel global: nothing of the module ran before this
  // (the start function is deferred, Extism's entry points renamed; red42).
  attach(fuel);
  let failed: PluginFailure | null = null;
  try {
    guest.start(instance);
  } catch (error) {
    failed = classify(scope.stop ?? error, 'load');
  }
  if (!failed && scope.stop) failed = classify(scope.stop, 'load');
  if (failed) {
    scope.vars.clear();
    await plugin.close().catch(() => undefined);
    return failed;
  }
  return {
    plugin,
    direct: directCaller(context(), instance, functions),
    fuel,
    memory: memory instanceof WebAssembly.Memory ? memory : null,
  };
}
