/**
 * Each call's own copy of its input, in buffers an engine keeps.
 *
 * Extism takes a Uint8Array that spans a whole ArrayBuffer as the call's
 * input block without copying, and copies anything else into a new
 * ArrayBuffer (an allocation that costs more than a small guest's whole
 * call). So a view (an encoder's reused buffer, a worker channel's shared
 * memory) is copied into an exact-size buffer kept for the next call of that
 * size. The plugin cannot keep it: Extism drops every block when the next
 * call begins.
 *
 * An input that spans its whole ArrayBuffer is copied too: Extism would use
 * the caller's buffer itself as the input block, which the plugin may write
 * (`store_u8` reaches every block), and which a borrowing caller (the hook
 * encoder, whose request can fill its buffer exactly) rewrites while the
 * call awaits a rebuilt instance.
 */

/** Inputs up to this size are copied into kept exact-size buffers (at most KEPT of them). */
const KEEP_BYTES = 16 * 1024;
const KEPT = 4;

export class KeptInputs {
  readonly #buffers: Uint8Array[] = [];

  /** A copy of `input` that spans its whole buffer and that only this call holds. */
  own(input: Uint8Array): Uint8Array {
    const n = input.byteLength;
    // Past the size cap, a copy of our own (Extism then takes it as it is; it copied a view itself, but only once the instance was ready).
    if (n > KEEP_BYTES) return input.slice();
    const kept = this.#buffers;
    let exact: Uint8Array | undefined;
    for (let i = 0; i < kept.length; i++) {
      if (kept[i]!.byteLength === n) {
        exact = kept[i];
        break;
      }
    }
    if (!exact) {
      exact = new Uint8Array(n);
      if (kept.length === KEPT) kept.shift();
      kept.push(exact);
    }
    // By hand: TypedArray#set is a call into the runtime, dearer than a short loop.
    if (n <= 256) for (let i = 0; i < n; i++) exact[i] = input[i]!;
    else exact.set(input);
    return exact;
  }
}
