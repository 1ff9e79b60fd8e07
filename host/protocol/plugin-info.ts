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
 */
import { Cursor } from './hook-response.js';

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
}

/** A cursor over one nested message: the next `size()` bytes, which must lie within `r`. */
function nested(r: Cursor): Cursor {
  const length = r.size();
  const start = r.pos;
  if (start + length > r.len) throw r.outOfRange(length);
  r.pos = start + length;
  return new Cursor().on(r.buf.subarray(start, start + length));
}

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

function grants(r: Cursor, into: WireGrants): WireGrants {
  while (r.pos < r.len) {
    const tag = r.tag();
    const wireType = tag & 7;
    const field = tag >>> 3;
    if (field === 1 && wireType === 2) into.networkHosts.push(r.string('network_hosts') ?? '');
    else if (field === 2 && wireType === 2) into.filePaths.push(r.string('file_paths') ?? '');
    else if (field === 3 && wireType === 2) into.configKeys.push(r.string('config_keys') ?? '');
    else r.skipType(wireType, 1, field);
  }
  return into;
}

/** Reads a PluginInfo's fields. Throws (an Error with a message) on bytes protobufjs would refuse. */
export function readPluginInfo(bytes: Uint8Array): WirePluginInfo {
  const r = new Cursor().on(bytes);
  const out: WirePluginInfo = { name: '', version: '', protocolVersion: 0, hooks: [], tools: [], grants: null, description: '' };
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
          out.hooks.push(binding(nested(r)));
          continue;
        case 5:
          out.tools.push(toolSpec(nested(r)));
          continue;
        case 6:
          out.grants = grants(nested(r), out.grants ?? { networkHosts: [], filePaths: [], configKeys: [] });
          continue;
        case 7:
          out.description = r.string('description') ?? '';
          continue;
      }
    }
    r.skipType(wireType, 0, field);
  }
  return out;
}
