// rv16: the oneof (HookRequest.payload) read by both SDK codecs as protobufjs reads it, when its
// members come in turn with nested messages filled at every depth: a member set again after another
// starts afresh at every depth (nothing of its old nested fields survives), a member seen twice in a
// row merges at every depth. conf3's differential generates such messages at random; this walks
// every pair of members with every field of the member filled down to depth 4.
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { echoCodecs } from './built.js';
import { framed, toHex } from './vectors.js';

const root = protobuf.loadSync(new URL('../../proto/wasmhooks/v1/hooks.proto', import.meta.url).pathname);
const HookRequest = root.lookupType('wasmhooks.v1.HookRequest');
const members = HookRequest.oneofs.payload!.fieldsArray;

/** Every field of `type` set (`seed` picks values), nested messages down to `depth`. */
function filled(type: protobuf.Type, seed: number, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of type.fieldsArray) {
    if (f.partOf) continue;
    const r = f.resolve().resolvedType;
    let v: unknown;
    if (r instanceof protobuf.Type) {
      if (depth <= 0) continue;
      v = filled(r, seed, depth - 1);
    } else if (r instanceof protobuf.Enum) v = Object.values(r.values)[seed % Object.values(r.values).length];
    else if (f.type === 'string') v = `${f.name}-${seed}`;
    else if (f.type === 'bool') v = true;
    else v = seed + 1;
    if (f.map) out[f.name] = { [`k${seed}`]: typeof v === 'object' ? v : String(v) };
    else out[f.name] = f.repeated ? [v] : v;
  }
  return out;
}

const enc = (member: protobuf.Field, body: Record<string, unknown>) => HookRequest.encode(HookRequest.fromObject({ [member.name]: body })).finish();
const cat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

describe('the payload oneof, members in turn, nested messages at every depth', () => {
  const echo = echoCodecs();

  it('read alike by protobufjs and both SDK codecs', async () => {
    const wrong: string[] = [];
    let inputs = 0;
    for (const a of members) {
      const type = a.resolve().resolvedType as protobuf.Type;
      for (const b of members) {
        for (let depth = 0; depth <= 4; depth++) {
          const first = enc(a, filled(type, 1, depth));
          const again = enc(a, filled(type, 2, Math.max(0, depth - 1)));
          // a, then b (or a again: a merge), then a with other values one level shallower.
          const input = cat(first, enc(b, filled(b.resolve().resolvedType as protobuf.Type, 3, depth)), again);
          const want = toHex(HookRequest.encode(HookRequest.decode(input)).finish());
          const expected = a === b ? want : toHex(again);
          if (want !== expected) wrong.push(`protobufjs ${a.name}/${b.name}/${depth}`);
          for (const [who, p] of [['as', echo.as], ['c', echo.c]] as const) {
            const got = toHex(await p.callRaw('echo', framed('HookRequest', input)));
            if (got !== want && wrong.length < 10) wrong.push(`${who} ${a.name} then ${b.name} then ${a.name}, depth ${depth}: ${got} != ${want}`);
          }
          inputs++;
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(inputs).toBe(members.length * members.length * 5);
  }, 120_000);
});
