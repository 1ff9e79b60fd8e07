// Session 40: a plugin's answer is capped in bytes (maxOutputBytes), not in entries. A 1 MiB
// `describe` answer holds 524,285 empty `hooks` entries, and every one was decoded and kept before
// the count was checked: a median 107-146 ms of Node's event loop per answer (Deno 293-317, Bun 64-85). Now every
// repeated field a plugin sends is capped as it is read: past the cap an entry is counted and
// skipped by its length, and the answer is refused naming the field, the count and the cap.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodePluginInfo } from '../../host/protocol/codec.js';
import { readPluginInfo } from '../../host/protocol/plugin-info.js';
import { REPEATED_CAPS } from '../../host/protocol/repeated-caps.js';
import { describeFlood, FLOOD_SHAPES } from '../fixtures/hostile/describe-flood.js';
import { cat, ld, utf8, varint } from './wire-bytes.js';

/** `Message.field` of every repeated (or map) field in the messages a plugin sends, and those they hold. */
function repeatedFieldsPluginsSend(): string[] {
  const proto = readFileSync(new URL('../../proto/wasmhooks/v1/hooks.proto', import.meta.url), 'utf8').replace(/\/\/.*$/gm, '');
  const messages = new Map<string, string>();
  for (const m of proto.matchAll(/message\s+(\w+)\s*\{([^}]*)\}/g)) messages.set(m[1]!, m[2]!);
  const found: string[] = [];
  const seen = new Set<string>();
  const visit = (name: string): void => {
    const body = messages.get(name);
    if (body === undefined || seen.has(name)) return;
    seen.add(name);
    for (const f of body.matchAll(/(repeated\s+)?(map\s*<[^>]*>|[\w.]+)\s+(\w+)\s*=\s*\d+\s*;/g)) {
      if (f[1] || f[2]!.startsWith('map')) found.push(`${name}.${f[3]}`);
      visit(f[2]!);
    }
  };
  // The answers of `describe`, `hook` and `tool` (hooks.proto's header): everything else is the host's.
  for (const root of ['PluginInfo', 'HookResponse', 'ToolResponse']) visit(root);
  return found.sort();
}

describe('every repeated field a plugin sends is capped', () => {
  it('the caps table names exactly the repeated fields of PluginInfo, HookResponse, ToolResponse and what they hold', () => {
    const fields = repeatedFieldsPluginsSend();
    expect(fields).toEqual(['Grants.config_keys', 'Grants.file_paths', 'Grants.network_hosts', 'PluginInfo.hooks', 'PluginInfo.tools']);
    expect(Object.values(REPEATED_CAPS).map((c) => c.field).sort()).toEqual(fields);
  });

  it.each(Object.keys(FLOOD_SHAPES) as (keyof typeof FLOOD_SHAPES)[])('a 1 MiB describe answer of tiny %s entries keeps at most the cap and is refused naming the field, count and cap', (shape) => {
    const bytes = describeFlood(shape, 1 << 20);
    const { key, count } = FLOOD_SHAPES[shape];
    const { field, cap } = REPEATED_CAPS[key];
    const read = readPluginInfo(bytes);
    const kept = key === 'hooks' || key === 'tools' ? read[key].length : read.grants![key].length;
    // The old reader kept every entry (and had no counts).
    expect(kept).toBe(cap);
    expect(read.counts[key]).toBe(count(1 << 20));
    const decoded = decodePluginInfo(bytes);
    expect(decoded.ok || decoded.failure).toEqual({ code: 'BAD_OUTPUT', message: `describe output has ${count(1 << 20)} entries in ${field} (${REPEATED_CAPS[key].entries}); the limit is ${cap}` });
  });

  it('entries past the cap are skipped by their length, not decoded: what is inside them decides nothing', () => {
    const head = [0x0a, 0x01, 0x67, 0x18, 0x01];
    const bad = [0xc0, 0xaf]; // not UTF-8: decoding it throws
    const hooks = Array.from({ length: 64 }, () => ld(4, [0x08, 0x06]));
    const grants = Array.from({ length: 256 }, (_, i) => ld(1, utf8(`h${i}.example`)));
    for (const [bytes, field, count] of [
      [cat(head, ...hooks, ld(4, ld(2, bad))), 'PluginInfo.hooks', 65],
      // A nested field that runs past its entry's end, in tool 257.
      [cat(head, ...Array.from({ length: 256 }, (_, i) => ld(5, ld(1, utf8(`t${i}`)))), ld(5, [0x0a, 0x05, 0x61])), 'PluginInfo.tools', 257],
      [cat(head, ld(6, [...grants.flat(), ...ld(1, bad), ...ld(1, bad)])), 'Grants.network_hosts', 258],
    ] as const) {
      const decoded = decodePluginInfo(bytes);
      // The old reader decoded the entry and refused the bytes as not valid protobuf.
      expect(decoded.ok || decoded.failure.message).toMatch(new RegExp(`^describe output has ${count} entries in ${field} `));
    }
    // A length past the bytes is still refused: a skip is bounded by the answer.
    const decoded = decodePluginInfo(cat(head, ...hooks, [0x22, ...varint(100)]));
    expect(decoded.ok || decoded.failure.message).toMatch(/not valid protobuf .*index out of range/);
  });

  it('the repeated fields of a merged grants message are counted together', () => {
    const head = [0x0a, 0x01, 0x67, 0x18, 0x01];
    const half = (from: number) => ld(6, Array.from({ length: 200 }, (_, i) => ld(3, utf8(`k${from + i}`))).flat());
    const decoded = decodePluginInfo(cat(head, half(0), half(200)));
    expect(decoded.ok || decoded.failure.message).toBe('describe output has 400 entries in Grants.config_keys (config keys); the limit is 256');
  });
});
