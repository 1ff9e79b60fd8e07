// rv16: string-field bytes at every boundary of Unicode's table 3-7, with whether they are
// well-formed UTF-8 as the WHATWG decoder (fatal) says — the rule protobufjs and both guest SDK
// codecs must follow. Pure data (no host imports), shared by test/guest/rv16.test.ts and, on Node,
// Deno and Bun, test/xrt/rv16.xrt.ts. The SDK codecs' check is fused into the decode, so these
// cover every branch of it: each lead byte 80-FF with the second byte at each range edge, the
// third and fourth good, bad or cut; 5- and 6-byte forms; CESU-8; noncharacters (valid).

const SECOND = [0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff];

/** [hex of the string's bytes, well-formed] — each framed as 'a' + bytes + 'z' to test position. */
export function utf8Cases(): Array<[string, boolean]> {
  const seqs: number[][] = [];
  for (let lead = 0x80; lead <= 0xff; lead++) {
    for (const b1 of SECOND) {
      seqs.push([lead, b1]);
      if (lead >= 0xe0) seqs.push([lead, b1, 0x80], [lead, b1, 0xbf], [lead, b1, 0x7f]);
      if (lead >= 0xf0) seqs.push([lead, b1, 0x80, 0x80], [lead, b1, 0xbf, 0xbf], [lead, b1, 0x80, 0xc0]);
    }
    seqs.push([lead]);
  }
  seqs.push(
    [0xf8, 0x88, 0x80, 0x80, 0x80], // a 5-byte form (U+200000)
    [0xfc, 0x84, 0x80, 0x80, 0x80, 0x80], // a 6-byte form
    [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80], // CESU-8 of U+1F600 (a surrogate pair, each half 3 bytes)
    [0xef, 0xbf, 0xbe], [0xef, 0xbf, 0xbf], [0xef, 0xb7, 0x90], [0xf4, 0x8f, 0xbf, 0xbf], [0xf0, 0x9f, 0xbf, 0xbe], // noncharacters: valid
    [0xef, 0xbb, 0xbf], // a BOM: valid, kept
    [0xc2, 0x80, 0xdf, 0xbf, 0xe0, 0xa0, 0x80, 0xed, 0x9f, 0xbf, 0xee, 0x80, 0x80, 0xf0, 0x90, 0x80, 0x80, 0xf4, 0x8f, 0xbf, 0xbf], // every edge, valid
  );
  const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  return seqs.map((s) => {
    const b = Uint8Array.from([0x61, ...s, 0x7a]);
    let ok = true;
    try {
      fatal.decode(b);
    } catch {
      ok = false;
    }
    return [Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(''), ok];
  });
}

/** A ToolRequest whose name (field 1) holds the bytes `hex` (under 128 bytes). */
export const nameRequest = (hex: string): string => '0a' + (hex.length / 2).toString(16).padStart(2, '0') + hex;
