// Hand-made wire cases every protocol codec must read alike (conf3): protobufjs, the AssemblyScript
// and the C SDK codecs. Used by codec-differential.test.ts and, on Node, Deno and Bun, test/xrt/conf3.xrt.ts.

/** [what, message type, input hex, the canonical re-encoding every codec must give]. */
export const CANONICAL: Array<[string, string, string, string]> = [
  ['a message field seen twice merges (not replaced)', 'PluginInfo', '3206' + '0a0461626364' + '3203' + '120178', '3209' + '0a0461626364' + '120178'],
  ['a oneof member merges while it is the set one', 'HookRequest', '6203' + '0a0178' + '6203' + '120179', '6206' + '0a0178' + '120179'],
  ['a oneof member set again after another starts afresh', 'HookRequest', '6203' + '0a0178' + '5200' + '6203' + '120179', '6203' + '120179'],
  ['a known field with another wire type is skipped as unknown', 'PluginInfo', '0801' + '1a0102' + '120178', '120178'],
  ['a uint32 past 2^32 keeps its low 32 bits', 'HookContext', '10' + '8580808010', '1005'],
  ['a negative enum stays a ten-byte varint', 'HookBinding', '08' + 'ffffffffffffffffff01', '08' + 'ffffffffffffffffff01'],
  ['a bool of 2 is true', 'StopPayload', '0802', '0801'],
  ['an overlong varint reads as its value', 'HookContext', '10' + '8180808000', '1001'],
];

/** [what, bytes that are not UTF-8]: a string field holding them is refused. */
export const NOT_UTF8: Array<[string, string]> = [
  ['an overlong "/" (C0 AF)', 'c0af'],
  ['a UTF-16 surrogate (ED A0 80)', 'eda080'],
  ['a code point past U+10FFFF', 'f4908080'],
  ['a cut sequence', '61e29c'],
  ['a lone continuation byte', '80'],
];

/** A ToolRequest whose name (field 1) holds `bad`. */
export const notUtf8Request = (bad: string): string => '0a' + (bad.length / 2).toString(16).padStart(2, '0') + bad;
