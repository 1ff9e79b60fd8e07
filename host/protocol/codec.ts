/**
 * The host side of protocol v1: typed decoding, with validation of
 * everything a plugin sends back. Plugin output is untrusted: decoding never
 * throws, it returns a failure. What a guard's path needs (`describe`,
 * `hook`) is read by hand (plugin-info.ts, hook-response.ts) so that this
 * module does not load protobufjs; the messages still encoded and decoded by
 * the generated code (tool calls, fixtures) are in pb-codec.ts.
 */
import type { wasmhooks } from './gen/hooks.js';
import type { PluginFailure } from '../failure.js';
import { HOOK_EVENT_NAMES, type FailurePolicy, type HookDecision, type HookEventName, type HookOutput } from '../hooks/types.js';
import { hookTextOverCap } from '../hooks/caps.js';
import { MAX_MATCHER_EXPANSION, matcherCost, parseToolMatcher } from '../hooks/matcher.js';
import { parseJson as parseBoundedJson, isRecord } from '../json.js';
import { TOOL_NAME } from '../tools/name.js';
import { permissionUpdatesSchema } from '../permissions/updates.js';
import { readHookResponse } from './hook-response.js';
import { readPluginInfo, type WirePluginInfo } from './plugin-info.js';
import { eventFromWire, eventToWire } from './events.js';
import { overCap, type RepeatedCounts } from './repeated-caps.js';

/** The protocol major this host speaks. */
export const PROTOCOL_VERSION = 1;

/**
 * Caps on what `describe` may declare. The repeated fields' caps (bindings, tools, grants) are
 * repeated-caps.ts's, applied as the bytes are read. Compiling matchers is host time spent before
 * any deadline applies: their costs (`matcherCost`: length × repetition counts) may add up to
 * MAX_PLUGIN_MATCHER_COST (worst case ≈ 0.4 s once).
 */
const MAX_PLUGIN_MATCHER_COST = 2048;
/**
 * The plugin's name and version: each hook call's two events carry the name three times (id, name,
 * plugin), kept for replay and sent to every watcher; a 1 MiB name was megabytes per hook call.
 */
const MAX_PLUGIN_NAME = 128;
const MAX_PLUGIN_DESCRIPTION = 4096;
/**
 * Characters of one tool's description, whoever declares it (a plugin's `describe`, an MCP server's
 * `tools/list`): each one goes to the model with every request and into the events. A plugin over it
 * is refused at load (as its other `describe` caps); an MCP server's is cut there (host/mcp/client.ts).
 * Before, a plugin's tool descriptions were bounded only by its output cap, an MCP server's by nothing.
 */
export const MAX_TOOL_DESCRIPTION = 8192;

// The protocol's events are the host's hook events, one list in enum order (value = index + 1).
export { HOOK_EVENT_NAMES };

/** The host's decisions in the order of the protocol's `Decision` enum (value = index + 1; 0 means continue). */
const DECISIONS: readonly HookDecision[] = ['continue', 'allow', 'deny', 'ask', 'stop', 'block'];

export { eventFromWire, eventToWire };

export type WireHookRequest = wasmhooks.v1.HookRequest.$Properties;
export type WireToolRequest = wasmhooks.v1.ToolRequest.$Properties;

export interface PluginBinding {
  event: HookEventName;
  /** The tool-name pattern as the plugin wrote it; `''` or `'*'` match every tool (see hooks/matcher.ts). */
  matcher: string;
  /** Undefined: the host's default for the event. */
  failurePolicy?: FailurePolicy;
}

export interface PluginToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface PluginGrants {
  networkHosts: string[];
  filePaths: string[];
  configKeys: string[];
}

/** A validated `describe` answer. */
export interface PluginInfo {
  name: string;
  version: string;
  description: string;
  protocolVersion: number;
  hooks: PluginBinding[];
  tools: PluginToolSpec[];
  grants: PluginGrants;
}

export interface ToolResponse {
  content: string;
  isError: boolean;
}

export type Decoded<T> = { ok: true; value: T } | { ok: false; failure: PluginFailure };

const bad = (message: string): { ok: false; failure: PluginFailure } => ({
  ok: false,
  failure: { code: 'BAD_OUTPUT', message },
});

export function decodeWith<T>(what: string, bytes: Uint8Array, decode: (b: Uint8Array) => T): Decoded<T> {
  try {
    return { ok: true, value: decode(bytes) };
  } catch (error) {
    return bad(`${what} is not valid protobuf (${bytes.length} bytes): ${(error as Error).message}`);
  }
}

function parseJson(what: string, text: string): Decoded<unknown> {
  // Unique keys: a plugin's JSON decides things (a rewritten tool input, a schema), so a key named
  // twice (readers disagree on which counts) or "__proto__" (a copy takes it as its prototype) is refused.
  const parsed = parseBoundedJson(text, what, { uniqueKeys: true });
  return parsed.ok ? parsed : bad(parsed.message);
}


/**
 * Decodes and validates a `describe` answer. A protocol major other than
 * ours yields PROTOCOL_MISMATCH; anything malformed yields BAD_OUTPUT.
 */
export function decodePluginInfo(bytes: Uint8Array): Decoded<PluginInfo> {
  const decoded = decodeWith('describe output', bytes, readPluginInfo);
  return decoded.ok ? pluginInfoOf(decoded.value) : decoded;
}

/** The fields of a PluginInfo as either decoder gives them (protobufjs: `null`/absent for defaults). */
export type PluginInfoFields = Pick<WirePluginInfo, 'name' | 'protocolVersion'> & {
  version?: string | null;
  description?: string | null;
  hooks: { event?: number | null; matcher?: string | null; failurePolicy?: number | null }[];
  tools: { name?: string | null; description?: string | null; inputSchemaJson?: string | null }[];
  grants?: { networkHosts?: string[] | null; filePaths?: string[] | null; configKeys?: string[] | null } | null;
  /** Entries of each repeated field on the wire (the hand reader's; protobufjs keeps them all: its lists' lengths). */
  counts?: RepeatedCounts;
};

/** Validates a decoded PluginInfo (test/protocol/plugin-info.fuzz.test.ts applies it to protobufjs's output too). */
export function pluginInfoOf(raw: PluginInfoFields): Decoded<PluginInfo> {
  if (raw.protocolVersion !== PROTOCOL_VERSION) {
    return {
      ok: false,
      failure: {
        code: 'PROTOCOL_MISMATCH',
        message:
          raw.protocolVersion === 0
            ? `describe output has no protocol_version (this host speaks v${PROTOCOL_VERSION}); is this a wasmhooks plugin?`
            : `plugin speaks protocol v${raw.protocolVersion}, this host speaks v${PROTOCOL_VERSION}: use a build of the plugin for v${PROTOCOL_VERSION} or a host that supports v${raw.protocolVersion}`,
      },
    };
  }
  const over = overCap('describe output', raw.counts ?? countsOf(raw));
  if (over) return bad(over);
  if (!raw.name) return bad('describe output has an empty plugin name');
  for (const [field, value, max] of [['name', raw.name, MAX_PLUGIN_NAME], ['version', raw.version ?? '', MAX_PLUGIN_NAME], ['description', raw.description ?? '', MAX_PLUGIN_DESCRIPTION]] as const) {
    if (value.length > max) return bad(`describe output's ${field} is ${value.length} characters; the limit is ${max}`);
  }

  const hooks: PluginBinding[] = [];
  let matcherCosts = 0;
  for (const [i, b] of raw.hooks.entries()) {
    const event = eventFromWire(b.event ?? 0);
    if (!event) return bad(`hooks[${i}] has an unknown event ${b.event}`);
    const matcher = b.matcher ?? '';
    // A matcher over its own limit is refused by parseToolMatcher (before compiling), with the reason.
    const cost = matcherCost(matcher);
    if (cost <= MAX_MATCHER_EXPANSION) matcherCosts += cost;
    if (matcherCosts > MAX_PLUGIN_MATCHER_COST) {
      return bad(`hooks[${i}] (${event}): the matchers cost more than ${MAX_PLUGIN_MATCHER_COST} in all (length × repetition counts, summed)`);
    }
    const parsed = parseToolMatcher(matcher);
    if (!parsed.ok) return bad(`hooks[${i}] (${event}) has an invalid matcher: ${parsed.message}`);
    const policy = b.failurePolicy ?? 0;
    if (policy < 0 || policy > 2) return bad(`hooks[${i}] (${event}) has an unknown failure_policy ${policy}`);
    hooks.push({
      event,
      matcher,
      ...(policy === 0 ? {} : { failurePolicy: policy === 1 ? 'fail-closed' : 'fail-open' }),
    });
  }

  const tools: PluginToolSpec[] = [];
  const names = new Set<string>();
  for (const [i, t] of raw.tools.entries()) {
    if (!t.name) return bad(`tools[${i}] has an empty name`);
    if (!TOOL_NAME.test(t.name)) return bad(`tools[${i}] name ${JSON.stringify(t.name.slice(0, 80))} must match ${TOOL_NAME.source} (the model APIs' rule)`);
    // Rules, matchers and guards go by name: `mcp__…` is the MCP servers' (they register later, at the first prompt, and lost a clash to the plugin).
    if (t.name.startsWith('mcp__')) return bad(`tools[${i}] name "${t.name}": names starting with mcp__ belong to MCP servers`);
    if (names.has(t.name)) return bad(`tools[${i}]: duplicate tool name "${t.name}"`);
    names.add(t.name);
    const schema = t.inputSchemaJson ? parseJson(`tools[${i}] (${t.name}) input_schema_json`, t.inputSchemaJson) : { ok: true as const, value: { type: 'object' } };
    if (!schema.ok) return schema;
    if (!isRecord(schema.value)) return bad(`tools[${i}] (${t.name}) input_schema_json must be a JSON object`);
    const description = t.description ?? '';
    if (description.length > MAX_TOOL_DESCRIPTION) return bad(`tools[${i}] (${t.name}) description is ${description.length} characters; the limit is ${MAX_TOOL_DESCRIPTION}`);
    tools.push({ name: t.name, description, inputSchema: schema.value });
  }

  const g = raw.grants;
  return {
    ok: true,
    value: {
      name: raw.name,
      version: raw.version ?? '',
      description: raw.description ?? '',
      protocolVersion: raw.protocolVersion,
      hooks,
      tools,
      grants: {
        networkHosts: [...(g?.networkHosts ?? [])],
        filePaths: [...(g?.filePaths ?? [])],
        configKeys: [...(g?.configKeys ?? [])],
      },
    },
  };
}

/** The counts of a decoded PluginInfo that kept every entry (protobufjs's). */
function countsOf(raw: PluginInfoFields): RepeatedCounts {
  const g = raw.grants;
  return { hooks: raw.hooks.length, tools: raw.tools.length, networkHosts: g?.networkHosts?.length ?? 0, filePaths: g?.filePaths?.length ?? 0, configKeys: g?.configKeys?.length ?? 0 };
}

/**
 * Decodes a `hook` answer into the host's `HookOutput`; the decision must be
 * a known one. The bytes are read by hand (hook-response.ts: every WASM hook
 * call pays this), accepting and refusing what protobufjs would.
 */
export function decodeHookResponse(bytes: Uint8Array): Decoded<HookOutput> {
  // Not through decodeWith: one result object per call, not two.
  let fields: HookResponseFields;
  try {
    fields = readHookResponse(bytes);
  } catch (error) {
    return bad(`hook output is not valid protobuf (${bytes.length} bytes): ${(error as Error).message}`);
  }
  return hookResponseOf(fields);
}

/** The fields of a HookResponse as either decoder gives them (protobufjs: `null`/absent for defaults). */
export interface HookResponseFields {
  decision?: number | null;
  reason?: string | null;
  updatedInputJson?: string | null;
  additionalContext?: string | null;
  systemMessage?: string | null;
  updatedOutputJson?: string | null;
  updatedPermissionsJson?: string | null;
}

// The caps are every hook kind's (hooks/caps.ts); exported here too, where fix3 put them.
export { HOOK_CONTEXT_MAX_CHARS, HOOK_REASON_MAX_CHARS } from '../hooks/caps.js';

/**
 * Validates a decoded HookResponse into a `HookOutput`: a known decision, JSON
 * where the protocol says JSON. `updated_output_json` holds the tool output's
 * replacement: a JSON string is its text, any other JSON value its JSON text.
 */
export function hookResponseOf(raw: HookResponseFields): Decoded<HookOutput> {
  const d = raw.decision ?? 0;
  const decision = d === 0 ? 'continue' : DECISIONS[d - 1];
  if (!decision) return bad(`hook output has an unknown decision ${d}`);
  const over = hookTextOverCap(raw, { reason: 'reason', systemMessage: 'system_message', additionalContext: 'additional_context' });
  if (over) return bad(over);
  const response: HookOutput = { decision };
  if (raw.reason) response.reason = raw.reason;
  if (raw.additionalContext) response.additionalContext = raw.additionalContext;
  if (raw.systemMessage) response.systemMessage = raw.systemMessage;
  if (raw.updatedInputJson) {
    const input = parseJson('hook output updated_input_json', raw.updatedInputJson);
    if (!input.ok) return input;
    if (!isRecord(input.value)) return bad('hook output updated_input_json must be a JSON object');
    response.updatedInput = input.value;
  }
  if (raw.updatedOutputJson) {
    const output = parseJson('hook output updated_output_json', raw.updatedOutputJson);
    if (!output.ok) return output;
    response.updatedOutput = typeof output.value === 'string' ? output.value : JSON.stringify(output.value);
  }
  if (raw.updatedPermissionsJson) {
    const updates = parseJson('hook output updated_permissions_json', raw.updatedPermissionsJson);
    if (!updates.ok) return updates;
    // The JS and shell hooks' schema (permissions/updates.ts); where it is legal is decisions.ts's rule, as for them.
    // The first five problems are named: a plugin's thousands of bad entries need not all be listed.
    const read = permissionUpdatesSchema().safeParse(updates.value);
    if (!read.success) return bad(`hook output updated_permissions_json: ${read.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ').slice(0, 500)}`);
    response.updatedPermissions = read.data;
  }
  return { ok: true, value: response };
}
