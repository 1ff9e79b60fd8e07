/**
 * The plugin's memory as WASI functions see it: every access is bounds
 * checked (a bad pointer is the plugin's EFAULT, never a host exception of
 * another kind), and the view is taken afresh on each call because
 * `memory.grow` replaces the buffer.
 */

/** preview1 errno values used here. */
export const Errno = {
  SUCCESS: 0,
  ACCES: 2,
  BADF: 8,
  EXIST: 20,
  FAULT: 21,
  INVAL: 28,
  ISDIR: 31,
  MFILE: 33,
  NAMETOOLONG: 37,
  NOENT: 44,
  NOSYS: 52,
  NOTDIR: 54,
  NOTSUP: 58,
  ROFS: 69,
  SPIPE: 70,
  NOTCAPABLE: 76,
} as const;

/** Thrown by a bad pointer; the WASI layer answers it with EFAULT. */
export class Fault extends Error {}

/** Largest iovec array accepted in one call (Linux's IOV_MAX). */
export const MAX_IOVECS = 1024;

export class Guest {
  #memory: WebAssembly.Memory | null = null;

  attach(memory: WebAssembly.Memory | null): void {
    this.#memory = memory;
  }

  view(): DataView {
    if (!this.#memory) throw new Fault('the plugin exports no memory');
    return new DataView(this.#memory.buffer);
  }

  /** `len` bytes at `ptr`, as a view into the plugin's memory (no copy). */
  bytes(ptr: number, len: number): Uint8Array {
    const buffer = this.view().buffer;
    if (ptr < 0 || len < 0 || ptr + len > buffer.byteLength) throw new Fault(`bad pointer ${ptr}+${len}`);
    return new Uint8Array(buffer, ptr, len);
  }

  string(ptr: number, len: number): string {
    return new TextDecoder().decode(this.bytes(ptr, len));
  }

  u32(ptr: number, value: number): void {
    this.view().setUint32(this.#check(ptr, 4), value, true);
  }

  u64(ptr: number, value: bigint | number): void {
    this.view().setBigUint64(this.#check(ptr, 8), BigInt(value), true);
  }

  /** The (buf, len) pairs of an iovec array, at most `MAX_IOVECS`. */
  iovecs(ptr: number, count: number): Array<[number, number]> | null {
    if (count > MAX_IOVECS) return null;
    const view = this.view();
    this.#check(ptr, count * 8);
    const out: Array<[number, number]> = [];
    for (let i = 0; i < count; i++) out.push([view.getUint32(ptr + i * 8, true), view.getUint32(ptr + i * 8 + 4, true)]);
    return out;
  }

  #check(ptr: number, len: number): number {
    const size = this.view().byteLength;
    if (ptr < 0 || ptr + len > size) throw new Fault(`bad pointer ${ptr}+${len}`);
    return ptr;
  }
}
