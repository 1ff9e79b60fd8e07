/**
 * The blocks the host makes for a plugin in Extism's call context (`alloc`, a value copied out by
 * `var_get` or `config_get`, an embedder's `ctx.store`): every one goes through `newBlock`.
 */
import type { CallContext } from '@extism/extism';
import { HostRefusal } from './failures.js';

/**
 * Blocks one call may hold in Extism's JS runtime, its own and the input's included: a block's
 * address is its index shifted into an i64's top 16 bits, so index 32,768 makes an address of
 * 2^63, which reaches the plugin as a negative i64 that names no block. A plugin that allocated
 * past it (a loop of `alloc` without `free`: a freed block's index is not reused within a call)
 * got such addresses back; its first use of one failed as an unrelated invalid host call, and a
 * store to one was silently dropped.
 */
const MAX_CALL_BLOCKS = 32_768;
const FIRST_UNADDRESSABLE = BigInt(MAX_CALL_BLOCKS) << 48n;

/**
 * Extism's `alloc` of `size` bytes: its address, or 0n when the memory cap leaves no room (the
 * caller refuses, in its own words). Past MAX_CALL_BLOCKS the call is refused here, a TRAP.
 */
export function newBlock(cc: CallContext, size: number): bigint {
  const address = cc.alloc(size);
  // One BigInt comparison per block: no BigInt made.
  if (address >= FIRST_UNADDRESSABLE) {
    throw new HostRefusal(
      'TRAP',
      `the plugin allocated too many memory blocks in one call: Extism's runtime holds at most ${MAX_CALL_BLOCKS} per call (the input's included, and a freed block's number is not reused until the next call); free the blocks it no longer needs, or reuse one`,
    );
  }
  return address;
}

/**
 * A fresh block under the plugin's memory cap holding a copy of `bytes`, or
 * 0n when the cap leaves no room (the caller refuses, in its own words).
 * Never Extism's `store()`: it pushes the bytes' own buffer as a block,
 * unchecked, which the plugin may then write (a host value rewritten) and
 * pile up past every cap.
 */
export function copyToBlock(cc: CallContext, bytes: Uint8Array): bigint {
  const address = newBlock(cc, bytes.byteLength);
  const block = address === 0n ? null : cc.read(address);
  if (!block) return 0n;
  block.bytes().set(bytes);
  return address;
}
