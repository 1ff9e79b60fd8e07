// rv16: the guest SDK codecs' UTF-8 check (conf3) is fused into the AssemblyScript decode, so it
// costs no second pass; these show both SDK codecs (codec-echo, vector-echo-c) still accept exactly
// the well-formed strings, at every edge of table 3-7, as protobufjs does. Twin of the wire codec
// scenario in test/xrt/rv16.xrt.ts (Node, Deno, Bun).
import { describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { echoCodecs } from './built.js';
import { bytes, framed, toHex } from './vectors.js';
import { nameRequest, utf8Cases } from './utf8-cases.js';

const ToolRequest = protobuf.loadSync(new URL('../../proto/wasmhooks/v1/hooks.proto', import.meta.url).pathname).lookupType('wasmhooks.v1.ToolRequest');

describe('string fields at every UTF-8 edge', () => {
  const echo = echoCodecs();

  it('are accepted (and echoed byte for byte) exactly when well-formed, by protobufjs and both SDK codecs', async () => {
    const cases = utf8Cases();
    expect(cases.filter(([, ok]) => ok).length).toBeGreaterThan(300);
    expect(cases.filter(([, ok]) => !ok).length).toBeGreaterThan(1500);
    const wrong: string[] = [];
    for (const [hex, ok] of cases) {
      const input = nameRequest(hex);
      let pj = true;
      try {
        ToolRequest.decode(bytes(input));
      } catch {
        pj = false;
      }
      if (pj !== ok) wrong.push(`protobufjs ${hex}: ${pj}`);
      for (const [who, plugin] of [['as', echo.as], ['c', echo.c]] as const) {
        let got: string;
        try {
          got = toHex(await plugin.callRaw('echo', framed('ToolRequest', bytes(input))));
        } catch (error) {
          got = /string field is not valid UTF-8/.test((error as Error).message) ? 'refused' : (error as Error).message;
        }
        if (got !== (ok ? input : 'refused')) wrong.push(`${who} ${hex}: ${got}`);
      }
    }
    expect(wrong.slice(0, 12)).toEqual([]);
  }, 120_000);
});
