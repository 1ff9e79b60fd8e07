/**
 * Typed function references (the function-references proposal: `(ref $t)`, `(ref null $t)`, `call_ref`,
 * `ref.as_non_null`, a table with an initialiser) are in Deno, Bun and Node from 22 (V8 11.9 shipped
 * them), not in Node 20's V8 11.3, which refuses a module that uses them in words of its own:
 * "invalid value type 'stringview_wtf8ref', enable with --experimental-wasm-stringref" for a
 * `(ref null $t)`, "invalid value type 0x40" for a table's initialiser. So a refusal says what it is.
 */

let supported: boolean | undefined;

/** The engine validates `(type (func (param (ref null 0))))`. */
function engineHasTypedRefs(): boolean {
  supported ??= WebAssembly.validate(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 6, 1, 0x60, 1, 0x63, 0, 0]));
  return supported;
}

/** V8 11.3's flag for call_ref, return_call_ref, ref.as_non_null and `ref.null $t`; br_on_null and br_on_non_null it put under GC. */
const TYPED_OPCODE = /typed[-_]funcref|Invalid opcode 0xd[56]\b/;

/**
 * Why the engine refused `bytes` with `message` when it is this engine's lack of typed function
 * references: the construct V8 names stands at the byte offset it gives (`@+N`). Undefined otherwise
 * (an engine that has them, or another fault).
 */
export function typedRefsRefusal(bytes: Uint8Array, message: string): string | undefined {
  if (engineHasTypedRefs()) return undefined;
  const at = /@\+(\d+)\s*$/.exec(message);
  const offset = at ? Number(at[1]) : -1;
  const b = bytes[offset];
  // (ref null $t), (ref $t), or the 0x40 0x00 that opens a table with an initialiser.
  const valueType = /invalid value type/.test(message) && (b === 0x63 || b === 0x64 || (b === 0x40 && bytes[offset + 1] === 0x00));
  if (!valueType && !TYPED_OPCODE.test(message)) return undefined;
  const where = at ? ` (byte offset ${offset})` : '';
  return (
    `it uses typed function references${where}, which this runtime's engine does not support: (ref $t), (ref null $t), ` +
    'call_ref, ref.as_non_null or a table with an initialiser, from the function-references proposal, which Node 22 and later, Deno and Bun support'
  );
}
