/**
 * `wasmhooks.v1.PluginInfo` bytes (a `describe` answer) → its fields, read by
 * hand so that loading a plugin does not load protobufjs and its generated
 * code (about 20 ms of a cold start on Node; they load when a tool call or a
 * test needs them, protocol/pb-codec.ts). The bytes come from the plugin, so
 * this accepts and refuses exactly what protobufjs 8's generated decoder does
 * (test/protocol/plugin-info.fuzz.test.ts compares the two), with the same
 * rules as the HookResponse reader (hook-response.ts) plus protobufjs's
 * nested messages:
 *
 * - a nested message (a binding, a tool, the grants) is read within its
 *   length, which must not run past the bytes; a field inside it that runs
 *   past its end is an error;
 * - `hooks` and `tools` append one entry per occurrence; a second `grants`
 *   is merged into the first (its lists append); scalars: the last wins, and
 *   a default value (`''`, 0) clears the field.
 *
 * One difference, by design: every repeated field is counted, and an entry
 * past its field's cap (repeated-caps.ts) is skipped by its length, not
 * decoded or kept. Such an answer is refused for the count (codec.ts), so
 * what is inside the skipped entries (a bad nested field, invalid UTF-8)
 * never decides anything; protobufjs would refuse some of those bytes for
 * their content instead.
 */
import { Cursor } from './hook-response.js';
import { REPEATED_CAPS, noCounts, type RepeatedCounts } from './repeated-caps.js';

interface WireHookBinding {
  event: number;
  matcher: string;
  failurePolicy: number;
}

interface WireToolSpec {
  name: string;
  description: string;
  inputSchemaJson: string;
}

interface WireGrants {
  networkHosts: string[];
  filePaths: string[];
  configKeys: string[];
}

/** The fields of a PluginInfo, defaults filled in as protobufjs's message prototype has them. */
export interface WirePluginInfo {
  name: string;
  version: string;
  protocolVersion: number;
  hooks: WireHookBinding[];
  tools: WireToolSpec[];
  grants: WireGrants | null;
  description: string;
  /** Entries of each repeated field on the wire; the lists above keep at most each field's cap. */
  counts: RepeatedCounts;
}

/**
 * Narrows `r` to the nested message whose length comes next (it must lie within `r`'s end) and
 * returns the outer end, for `leave`. The same cursor, not a new one per message: half a million
 * empty nested messages (a merged `grants` each) made as many cursors.
 */
function enter(r: Cursor): number {
  const length = r.size();
  const end = r.pos + length;
  if (end > r.len) throw r.outOfRange(length);
  const outer = r.len;
  r.len = end;
  return outer;
}

/** Back to the outer message once a nested one is read to its end. */
const leave = (r: Cursor, outer: number): void => {
  r.len = outer;
};

/** Caps read into constants: the checks below run once per entry, up to half a million times an answer. */
const { hooks: HOOKS, tools: TOOLS, networkHosts: HOSTS, filePaths: PATHS, configKeys: KEYS } = REPEATED_CAPS;

/** An entry past its field's cap: counted by the caller, its bytes (length-delimited) skipped unread. */
const skipEntry = (r: Cursor): void => r.skip(r.size());

function binding(r: Cursor): WireHookBinding {
  const out: WireHookBinding = { event: 0, matcher: '', failurePolicy: 0 };
  while (r.pos < r.len) {
    const tag = r.tag();
    const wireType = tag & 7;
    const field = tag >>> 3;
    if (field === 1 && wireType === 0) out.event = r.uint32() | 0;
    else if (field === 2 && wireType === 2) out.matcher = r.string('matcher') ?? '';
    else if (field === 3 && wireType === 0) out.failurePolicy = r.uint32() | 0;
    else r.skipType(wireType, 1, field);
  }
  return out;
}

function toolSpec(r: Cursor): WireToolSpec {
  const out: WireToolSpec = { name: '', description: '', inputSchemaJson: '' };
  while (r.pos < r.len) {
    const tag = r.tag();
    const wireType = tag & 7;
    const field = tag >>> 3;
    if (field === 1 && wireType === 2) out.name = r.string('tool name') ?? '';
    else if (field === 2 && wireType === 2) out.description = r.string('tool description') ?? '';
    else if (field === 3 && wireType === 2) out.inputSchemaJson = r.string('input_schema_json') ?? '';
    else r.skipType(wireType, 1, field);
  }
  return out;
}

function grants(r: Cursor, into: WireGrants, counts: RepeatedCounts): WireGrants {
  while (r.pos < r.len) {
    const tag = r.tag();
    const wireType = tag & 7;
    const field = tag >>> 3;
    if (field === 1 && wireType === 2) {
      if (++counts.networkHosts <= HOSTS.cap) into.networkHosts.push(r.string('network_hosts') ?? '');
      else skipEntry(r);
    } else if (field === 2 && wireType === 2) {
      if (++counts.filePaths <= PATHS.cap) into.filePaths.push(r.string('file_paths') ?? '');
      else skipEntry(r);
    } else if (field === 3 && wireType === 2) {
      if (++counts.configKeys <= KEYS.cap) into.configKeys.push(r.string('config_keys') ?? '');
      else skipEntry(r);
    } else r.skipType(wireType, 1, field);
  }
  return into;
}

/** Reads a PluginInfo's fields. Throws (an Error with a message) on bytes protobufjs would refuse. */
export function readPluginInfo(bytes: Uint8Array): WirePluginInfo {
  const r = new Cursor().on(bytes);
  const counts = noCounts();
  const out: WirePluginInfo = { name: '', version: '', protocolVersion: 0, hooks: [], tools: [], grants: null, description: '', counts };
  while (r.pos < r.len) {
    const tag = r.tag();
    const wireType = tag & 7;
    const field = tag >>> 3;
    if (field === 3 && wireType === 0) {
      out.protocolVersion = r.uint32();
      continue;
    }
    if (wireType === 2) {
      switch (field) {
        case 1:
          out.name = r.string('name') ?? '';
          continue;
        case 2:
          out.version = r.string('version') ?? '';
          continue;
        case 4:
          if (++counts.hooks <= HOOKS.cap) {
            const outer = enter(r);
            out.hooks.push(binding(r));
            leave(r, outer);
          } else skipEntry(r);
          continue;
        case 5:
          if (++counts.tools <= TOOLS.cap) {
            const outer = enter(r);
            out.tools.push(toolSpec(r));
            leave(r, outer);
          } else skipEntry(r);
          continue;
        case 6: {
          const outer = enter(r);
          out.grants = grants(r, out.grants ?? { networkHosts: [], filePaths: [], configKeys: [] }, counts);
          leave(r, outer);
          continue;
        }
        case 7:
          out.description = r.string('description') ?? '';
          continue;
      }
    }
    r.skipType(wireType, 0, field);
  }
  return out;
}
