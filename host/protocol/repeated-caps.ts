/**
 * The cap on every repeated field a plugin sends (proto/wasmhooks/v1/hooks.proto: `PluginInfo`,
 * `HookResponse`, `ToolResponse` and what they hold; the last two have none). A field is capped
 * where it is read off the wire (plugin-info.ts): past its cap an entry is counted and its bytes
 * skipped by their length, never decoded or kept, and the answer is refused (codec.ts
 * `pluginInfoOf`) with the field, its count and its cap. Byte caps (`maxOutputBytes`) do not
 * bound the count: a 1 MiB describe answer holds 524,285 empty `hooks` entries, and decoding and
 * keeping each before the count was checked held the event loop 64–317 ms per answer (median).
 * test/protocol/repeated-caps.test.ts checks this table against the .proto file.
 */

/**
 * Hook bindings: each is one more sandboxed call per matching event, and its matcher is compiled
 * at load, host time spent before any deadline applies (codec.ts MAX_PLUGIN_MATCHER_COST).
 */
const MAX_PLUGIN_BINDINGS = 64;
/** Tools: each is host work at load (its schema parsed and compiled) and one more spec sent to the model. */
const MAX_PLUGIN_TOOLS = 256;
/** Entries per grants list: each is compared at load with the config's and the lock's (40,000 took 4 s). */
const MAX_PLUGIN_GRANTS = 256;

/** A repeated field a plugin sends: where it is in the protocol, what it holds (for messages), its cap. */
export interface RepeatedCap {
  /** `Message.field`, as in hooks.proto. */
  readonly field: string;
  /** What one entry is, in words ("hook bindings"). */
  readonly entries: string;
  readonly cap: number;
}

/** Every repeated field of plugin output, by its key in `WirePluginInfo['counts']`. */
export const REPEATED_CAPS = Object.freeze({
  hooks: { field: 'PluginInfo.hooks', entries: 'hook bindings', cap: MAX_PLUGIN_BINDINGS },
  tools: { field: 'PluginInfo.tools', entries: 'tools', cap: MAX_PLUGIN_TOOLS },
  networkHosts: { field: 'Grants.network_hosts', entries: 'network hosts', cap: MAX_PLUGIN_GRANTS },
  filePaths: { field: 'Grants.file_paths', entries: 'file paths', cap: MAX_PLUGIN_GRANTS },
  configKeys: { field: 'Grants.config_keys', entries: 'config keys', cap: MAX_PLUGIN_GRANTS },
} as const satisfies Record<string, RepeatedCap>);

export type RepeatedField = keyof typeof REPEATED_CAPS;

/** How many entries of each repeated field were on the wire, those past the cap (skipped unread) included. */
export type RepeatedCounts = Record<RepeatedField, number>;

export const noCounts = (): RepeatedCounts => ({ hooks: 0, tools: 0, networkHosts: 0, filePaths: 0, configKeys: 0 });

/** The refusal for the first field over its cap (in the table's order), or undefined. */
export function overCap(what: string, counts: RepeatedCounts): string | undefined {
  for (const [key, { field, entries, cap }] of Object.entries(REPEATED_CAPS)) {
    const count = counts[key as RepeatedField];
    if (count > cap) return `${what} has ${count} entries in ${field} (${entries}); the limit is ${cap}`;
  }
  return undefined;
}
