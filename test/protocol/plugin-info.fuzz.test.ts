/**
 * The hand-written PluginInfo reader (host/protocol/plugin-info.ts: a
 * `describe` answer, read at every plugin load) against the decoder it
 * replaced, protobufjs's generated `PluginInfo.decode`: on describe answers of
 * every shape, each of their truncations and single-byte corruptions, hostile
 * bytes (nested lengths past their parent, fields running past a nested
 * message's end, wrong wire types for nested fields, groups inside nested
 * messages, repeated and merged messages, invalid UTF-8) and seeded random
 * field sequences. Both must refuse the same bytes and read the same fields
 * from the rest; `decodePluginInfo` must then answer as the protobufjs path
 * would (the same validation, the same failure codes).
 */
import { describe, expect, it } from 'vitest';
import { cat, eachVariant, ld, prng, utf8 } from './wire-bytes.js';
import { differential, randomFields } from './differential.js';
import { decodePluginInfo, pluginInfoOf } from '../../host/protocol/codec.js';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';
import { encodePluginInfo } from '../../host/protocol/pb-codec.js';
import { readPluginInfo } from '../../host/protocol/plugin-info.js';
import { overCap, REPEATED_CAPS, type RepeatedField } from '../../host/protocol/repeated-caps.js';

const v1 = wasmhooks.v1;

/**
 * Both decoders' output as plain data (protobufjs keeps defaults on its prototypes): each list as the
 * reader keeps it (at most its cap), with the count of entries on the wire.
 */
function normalized(m: wasmhooks.v1.PluginInfo | ReturnType<typeof readPluginInfo>): unknown {
  const g = m.grants;
  const lists = {
    hooks: m.hooks.map((h) => ({ event: h.event, matcher: h.matcher, failurePolicy: h.failurePolicy })),
    tools: m.tools.map((t) => ({ name: t.name, description: t.description, inputSchemaJson: t.inputSchemaJson })),
    networkHosts: [...(g?.networkHosts ?? [])],
    filePaths: [...(g?.filePaths ?? [])],
    configKeys: [...(g?.configKeys ?? [])],
  };
  const counts = 'counts' in m ? m.counts : Object.fromEntries(Object.entries(lists).map(([k, v]) => [k, v.length]));
  const kept = <T,>(key: RepeatedField, list: T[]): T[] => list.slice(0, REPEATED_CAPS[key].cap);
  return {
    name: m.name,
    version: m.version,
    protocolVersion: m.protocolVersion,
    description: m.description,
    hooks: kept('hooks', lists.hooks),
    tools: kept('tools', lists.tools),
    grants: g ? { networkHosts: kept('networkHosts', lists.networkHosts), filePaths: kept('filePaths', lists.filePaths), configKeys: kept('configKeys', lists.configKeys) } : null,
    counts,
  };
}

/** What decodePluginInfo answered before: protobufjs, then the same validation. */
function reference(bytes: Uint8Array) {
  let raw: wasmhooks.v1.PluginInfo;
  try {
    raw = v1.PluginInfo.decode(bytes);
  } catch {
    return { ok: false as const, failure: { code: 'BAD_OUTPUT' } };
  }
  return pluginInfoOf(raw);
}

/** Both readers, then decodePluginInfo against the reference (the same failure codes). */
const run = differential({
  protobufjs: (b) => normalized(v1.PluginInfo.decode(b)),
  reader: (b) => normalized(readPluginInfo(b)),
  decode: decodePluginInfo,
  reference,
  what: 'describe output',
  overCap: (fields) => {
    const { counts, protocolVersion } = fields as { counts: Parameters<typeof overCap>[1]; protocolVersion: number };
    const message = overCap('describe output', counts);
    // Another protocol major is refused as such first, whatever the counts.
    return message === undefined ? undefined : protocolVersion === 1 ? { code: 'BAD_OUTPUT', message } : { code: 'PROTOCOL_MISMATCH' };
  },
});
const agree = run.agree;

/** Describe answers of every shape, encoded by protobufjs. */
function shapes(): Uint8Array[] {
  const E = v1.HookEvent;
  const full = {
    name: 'guard-shell',
    version: '1.2.3',
    protocolVersion: 1,
    description: 'Blocks dangerous shell commands ✓',
    hooks: [
      { event: E.HOOK_EVENT_PRE_TOOL_USE, matcher: 'Bash|Shell' },
      { event: E.HOOK_EVENT_STOP, failurePolicy: v1.FailurePolicy.FAILURE_POLICY_FAIL_OPEN },
      { event: E.HOOK_EVENT_POST_TOOL_USE, matcher: 'mcp__.*', failurePolicy: 1 },
    ],
    tools: [{ name: 'calc', description: 'adds', inputSchemaJson: '{"type":"object"}' }, { name: 'echo' }],
    grants: { networkHosts: ['api.example.com'], filePaths: ['/tmp'], configKeys: ['limit', ''] },
  };
  return [
    new Uint8Array(),
    encodePluginInfo(full),
    encodePluginInfo({ name: 'g', protocolVersion: 1 }),
    encodePluginInfo({ name: 'g', protocolVersion: 2, version: 'x'.repeat(70) }),
    encodePluginInfo({ name: 'é'.repeat(40), protocolVersion: 2 ** 32 - 1 }),
    encodePluginInfo({ name: 'g', protocolVersion: 1, hooks: [{ event: 99 as wasmhooks.v1.HookEvent, matcher: '(' }, { event: -1 as wasmhooks.v1.HookEvent }, { event: 1, failurePolicy: 3 as wasmhooks.v1.FailurePolicy }] }),
    encodePluginInfo({ name: 'g', protocolVersion: 1, hooks: [{}, {}, {}] }),
    encodePluginInfo({ name: 'g', protocolVersion: 1, tools: [{ name: 't', inputSchemaJson: '[1]' }, { name: 't', inputSchemaJson: '{bad' }, { name: '' }] }),
    encodePluginInfo({ name: 'g', protocolVersion: 1, grants: {} }),
    encodePluginInfo({ name: 'g', protocolVersion: 1, grants: { networkHosts: ['a', 'b', 'c'], filePaths: [''], configKeys: ['k'] } }),
    encodePluginInfo({ name: 'g', protocolVersion: 1, hooks: Array.from({ length: 70 }, () => ({ event: 1 })) }),
  ];
}

/** Hand-made bytes a hostile or broken plugin could send. */
function hostile(): Uint8Array[] {
  const b = (...x: number[]) => Uint8Array.from(x);
  const ok = [...encodePluginInfo({ name: 'g', protocolVersion: 1 })];
  const groupNest = (depth: number) => [...Array(depth).fill(0x3b), ...Array(depth).fill(0x3c)]; // field 7 groups, nested
  return [
    // Nested lengths: past the end, exactly at it, huge, truncated.
    cat(ok, [0x22, 0x05, 0x08, 0x01]), cat(ok, [0x22, 0x02, 0x08, 0x01]), cat(ok, [0x22, 0xff, 0xff, 0xff, 0xff, 0x07]), cat(ok, [0x22]), cat(ok, [0x2a, 0x80]),
    // A field inside a nested message that runs past its end (but not past the bytes).
    cat(ok, [0x22, 0x03, 0x12, 0x05, 0x61], utf8('bcdef')), cat(ok, [0x2a, 0x02, 0x0a, 0x03, 0x61, 0x62, 0x63]), cat(ok, [0x32, 0x01, 0x08, 0x01]),
    cat(ok, [0x22, 0x01, 0x88, 0x01]), cat(ok, [0x22, 0x02, 0x09, 0x01, 1, 2, 3, 4, 5, 6, 7]), cat(ok, [0x22, 0x02, 0x0d, 1, 2, 3, 4]),
    // Nested fields with the wrong wire type (skipped if well-formed), and as varints at the top.
    cat(ok, [0x20, 0x01]), cat(ok, [0x28, 0x05]), cat(ok, [0x30, 0x00]), cat(ok, [0x22, 0x02, 0x0a, 0x00]), cat(ok, [0x22, 0x02, 0x10, 0x01]),
    cat(ok, [0x22, 0x02, 0x1a, 0x00]), cat(ok, [0x2a, 0x02, 0x08, 0x01]), cat(ok, [0x32, 0x02, 0x08, 0x01]), cat(ok, [0x1a, 0x01, 0x01]),
    // Groups inside nested messages: fine, mismatched, unterminated, nested to the limit and past it.
    cat(ok, ld(4, [0x3b, 0x3c])), cat(ok, ld(4, [0x3b, 0x44])), cat(ok, ld(4, [0x3b])), cat(ok, ld(4, groupNest(98))), cat(ok, ld(4, groupNest(99))),
    cat(ok, ld(4, groupNest(100))), cat(ok, ld(6, groupNest(99))), cat(ok, ld(5, groupNest(101))), cat(groupNest(100), ok), cat(groupNest(101), ok),
    cat(ok, ld(4, [0x0c])), cat(ok, ld(4, [0x00])), cat(ok, ld(4, [0x0b, 0x0c, 0x08, 0x02])),
    // Repeated and merged: two grants messages, two bindings, scalars cleared by a later default.
    cat(ok, ld(6, ld(1, utf8('a'))), ld(6, ld(1, utf8('b')))), cat(ok, ld(6, ld(3, utf8('k'))), ld(6, [])), cat(ok, ld(4, [0x08, 0x01]), ld(4, [0x08, 0x02, 0x08, 0x00])),
    cat(ok, [0x18, 0x00]), cat(ok, [0x0a, 0x00]), cat(ok, ld(4, [...ld(2, utf8('x')), 0x12, 0x00])),
    // Protocol versions: 64-bit varints, negative enums.
    cat([0x0a, 0x01, 0x67, 0x18], [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), cat(ok, ld(4, [0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])),
    b(0x18, 0x81, 0x80, 0x80, 0x80, 0x10), b(0x18, 0x01, 0x0a, 0x01, 0x67, 0x18, 0x80, 0x80, 0x80, 0x80),
    // Invalid UTF-8 in top-level and nested strings.
    cat(ok, ld(1, [0x80])), cat(ok, ld(4, ld(2, [0xc0, 0xaf]))), cat(ok, ld(5, ld(1, [0xed, 0xa0, 0x80]))), cat(ok, ld(6, ld(2, [0x61, 0xff]))),
    cat(ok, ld(5, ld(3, [...utf8('{"a":"' + 'x'.repeat(70)), 0xfe]))), cat(ok, ld(7, [0xef, 0xbb, 0xbf, 0x61])),
    // Unknown fields of every wire type, inside and outside nested messages.
    cat([0x40, 0x96, 0x01], ok), cat(ok, ld(4, [0x38, 0x01, 0x41, 1, 2, 3, 4, 5, 6, 7, 8, 0x45, 1, 2, 3, 4, ...ld(9, [1])])), cat(ok, [0x0f]),
    cat(ok, [0x00]), cat(ok, ld(6, [0x00])), cat(ok, [0x88, 0x80, 0x80, 0x80, 0x10, 0x02]),
    // Past a repeated field's cap (session 40): entries skipped unread, whatever is in them; another major first.
    cat(ok, ...Array(64).fill(ld(4, [0x08, 0x06])), ld(4, ld(2, [0xc0, 0xaf])), ld(4, [0x12, 0x05, 0x61])),
    cat([0x0a, 0x01, 0x67, 0x18, 0x02], ...Array(65).fill(ld(4, [])), ld(4, [0x0b])),
    cat(ok, ...Array(257).fill(ld(5, [])), ld(5, [0x3b])), cat(ok, ld(6, [...Array(257).fill(ld(2, [])).flat(), ...ld(2, [0xff])]), ld(6, ld(3, [0x80]))),
  ];
}


describe('PluginInfo reader against protobufjs', () => {
  it('agrees on every describe shape, each of its truncations and each single-byte corruption', () => {
    const rnd = prng(3);
    for (const bytes of shapes()) eachVariant(bytes, rnd, agree);
  });

  it('agrees on hostile bytes: nested lengths, overruns, wire types, groups, merges, varints, UTF-8, unknown fields', () => {
    for (const bytes of hostile()) {
      agree(bytes);
      for (let n = 0; n < bytes.length; n++) agree(bytes.subarray(0, n));
    }
  });

  it('agrees on seeded random field sequences, nested ones included', () => {
    const rnd = prng(41);
    const byte = () => (rnd() < 0.5 ? [0x00, 0x08, 0x0a, 0x12, 0x1a, 0x22, 0x2a, 0x32, 0x3b, 0x3c, 0x80, 0xff][Math.floor(rnd() * 12)]! : Math.floor(rnd() * 256));
    const fields = () => randomFields(rnd, byte, { most: 5, known: 0.85, body: 40, exact: 0.95, nested: (depth) => depth < 2 && rnd() < 0.4 });
    for (let k = 0; k < 12_000; k++) agree(Uint8Array.from([...(rnd() < 0.5 ? [0x0a, 0x01, 0x67, 0x18, 0x01] : []), ...fields()]));
    for (let k = 0; k < 4_000; k++) agree(Uint8Array.from({ length: Math.floor(rnd() * 24) }, byte));
  });

  it('agrees on overlong and 64-bit varints, lengths past 2^32, groups around the depth limit, negative enums', () => {
    // A varint of `v` padded to `pad` more bytes than it needs (overlong), as a plugin may write it.
    const vlong = (v: bigint, pad = 0): number[] => {
      const out: number[] = [];
      do {
        out.push(Number(v & 0x7fn) | 0x80);
        v >>= 7n;
      } while (v > 0n);
      for (let i = 0; i < pad; i++) out.push(0x80);
      out[out.length - 1]! &= 0x7f;
      return out;
    };
    const head = [0x0a, 0x01, 0x67, 0x18, 0x01];
    const group = (field: number, depth: number, end = field): number[] =>
      depth === 0 ? [...vlong(BigInt(field * 8 + 3)), ...vlong(BigInt(end * 8 + 4))] : [...vlong(BigInt(field * 8 + 3)), ...group(field, depth - 1), ...vlong(BigInt(end * 8 + 4))];
    const values = [0n, 1n, 2n, 3n, 0x7fffffffn, 0x80000000n, 0xffffffffn, 1n << 32n, (1n << 32n) + 1n, (1n << 35n) + 3n, (1n << 63n) - 1n, 1n << 63n, (1n << 64n) - 1n];
    const cases: number[][] = [];
    for (const v of values) {
      for (const pad of [0, 1, 3, 9]) {
        cases.push([...head, 0x18, ...vlong(v, pad)]); // protocol_version
        cases.push([...head, 0x22, 0x02, 0x08, 0x06, 0x22, ...vlong(v, pad)]); // a binding's length
        const binding = [0x08, ...vlong(v, pad), 0x18, ...vlong(v, pad)]; // event and failure_policy
        cases.push([...head, 0x22, ...vlong(BigInt(binding.length)), ...binding]);
        cases.push([...head, 0x0a, ...vlong(v, pad), 0x67]); // a string's length
        cases.push([...head, ...vlong(BigInt(8 * 9 + 2), pad), 0x01, 0x00]); // an unknown field's tag, overlong
        cases.push([...head, 0x32, ...vlong(v + 2n, pad), 0x0a, 0x00]); // grants' length past the bytes
      }
    }
    // An 11-byte varint (one too long) where a value, a tag and a length go.
    const eleven = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    cases.push([...head, 0x18, ...eleven], [...eleven, 0x00], [...head, 0x0a, ...eleven, 0x67]);
    for (const depth of [98, 99, 100, 101, 102]) {
      cases.push([...head, ...group(9, depth)]); // top level
      const inner = group(9, depth);
      cases.push([...head, 0x22, ...vlong(BigInt(inner.length + 2)), 0x08, 0x06, ...inner]); // inside a binding
      cases.push([...head, ...group(9, depth, 10)]); // the wrong end tag
    }
    cases.push([...head, 0x4c], [...head, 0x22, 0x01, 0x4c], [...head, 0x4b]); // an end group alone, an unclosed group
    for (const bytes of cases) {
      agree(Uint8Array.from(bytes));
      for (let n = head.length; n < bytes.length; n++) agree(Uint8Array.from(bytes.slice(0, n)));
    }
  });

  it('covered both sides: many refusals and many accepted answers', () => {
    expect(run.checked).toBeGreaterThan(20_000);
    expect(run.refused).toBeGreaterThan(3_000);
    expect(run.checked - run.refused).toBeGreaterThan(5_000);
  });
});
