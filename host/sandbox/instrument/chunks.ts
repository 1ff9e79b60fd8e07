/**
 * Long bulk memory operations, split (and long `table.copy`s, `table.init`s and `table.fill`s, red38:
 * `TABLE_CHUNK_ELEMENTS`). `memory.fill`, `memory.copy` and
 * `memory.init` are single instructions: the host gets control before one
 * (its length is charged first, bulk.ts) and after it, never inside. A 16 MiB
 * fill on freshly faulted pages took 51–65 ms on a quiet machine and up to
 * ~140 ms under CI's load: past a 50 ms deadline's slack by one instruction.
 * So one longer than `BULK_CHUNK_BYTES` runs as a loop of chunks that long,
 * each charged as it starts (a charge past the slice calls refuel, which
 * reads the clock), then the rest as before.
 *
 * What the plugin sees does not change: an operation out of bounds is not
 * split (it runs whole: charged, then it traps before writing anything, as
 * the spec says); a `memory.copy` whose destination lies above its source
 * copies its chunks from the end (overlapping ranges move as by memmove). A
 * `memory.init` is split only from a passive segment longer than a chunk
 * (the segments' lengths are known: info.ts `dataLengths`; from any other a
 * long one traps) and only when it reads within the segment's length;
 * past it, it runs whole. What is left, a dropped segment, traps at the
 * first chunk with nothing written (charged a chunk, not the whole length:
 * the one difference, docs/sandbox-instrumentation.md). The chunks are
 * charged what the whole operation was (1 fuel per byte:
 * `BULK_BYTES_PER_FUEL_LOG2` is 0, and a chunk is a multiple of any power of
 * two up to it), so fuel used is the same.
 *
 * The code needs three i32 scratch locals (`tempLocals`), and a split
 * `table.fill` one more for the value (`refTemps`, one per type the function
 * fills: the table's, or a non-nullable table's nullable twin, see
 * `writeBulk`). A function with no room for them (within four of the
 * engines' 50,000-local limit, five or six with a table.fill) is refused
 * if it holds an operation that may be long: kept whole, that operation would
 * be the overrun this file exists to stop, in a function the plugin's author
 * padded with locals to get it.
 */
import { chargeEngineCall, chargeOperand, sleb32, type OperandCharge } from './bulk.js';
import { lebEnd, readLeb } from './leb.js';
import type { RewriteInfo } from './module-info.js';
import { TABLE_ELEMENT_FUEL_LOG2 } from './opcodes.js';
import type { Writer } from './writer.js';

/** A bulk memory operation longer than this (bytes) runs in chunks this long. A power of two. */
const BULK_CHUNK_BYTES = 1 << 20;
/**
 * A `table.copy` (or a `table.init` from a passive segment longer than this) longer than this (elements)
 * runs in chunks this long, the same way (red38): engines
 * copy 100-135 ns an element, so under a raised maxTableElements one copy of the ~976,000 elements the
 * default fuel buys held the thread 100-130 ms, and more under a raised fuel. 32,768: ≈ 4 ms a chunk.
 */
const TABLE_CHUNK_ELEMENTS = 1 << 15;

/** Scratch locals the split form needs: the length, the source (or fill value), the destination. */
export const CHUNK_LOCALS = 3;

const MEMORY_INIT = 8, MEMORY_COPY = 10, MEMORY_FILL = 11, TABLE_INIT = 12, TABLE_COPY = 14, TABLE_FILL = 17;
const LOCAL_GET = 0x20, LOCAL_SET = 0x21, I32_CONST = 0x41, I32_ADD = 0x6a, I32_SUB = 0x6b, I32_GT_U = 0x4b, BR_IF = 0x0d, END = 0x0b;
/** `(ref $t)`, `(ref null $t)` (a heap type follows each), and `ref.as_non_null`. */
const REF = 0x64, REF_NULL = 0x63, REF_AS_NON_NULL = 0xd4;

/** Why a function is refused when a bulk memory operation in it may be long and it has no room for the scratch locals. */
export const NO_ROOM_TO_SPLIT = `too many locals to meter this bulk memory or table operation (the sandbox needs ${CHUNK_LOCALS} more, a table.fill ${CHUNK_LOCALS + 1})`;

/**
 * Writes the charge of the bulk operation `buf[at, end)` (an 0xFC
 * instruction, its operands on the stack) and the operation itself: split
 * into chunks for the memory operations that may be long, whole otherwise.
 * False, with nothing written, when the function has no room for the split
 * form's locals (the caller refuses the module: NO_ROOM_TO_SPLIT).
 */
export function writeBulk(m: RewriteInfo, w: Writer, buf: Uint8Array, at: number, end: number, charge: OperandCharge): boolean {
  const sub = readLeb(buf, at + 1);
  // Immediates: init (data, memory); copy (destination memory, source memory); fill (memory, or table).
  const fill = sub === MEMORY_FILL || sub === TABLE_FILL;
  const first = readLeb(buf, lebEnd);
  const second = fill ? first : readLeb(buf, lebEnd);
  // From a segment no longer than a chunk, a memory.init (table.init) longer than one traps: it never splits.
  const init = sub === MEMORY_INIT || sub === TABLE_INIT;
  const segment = sub === MEMORY_INIT ? (m.dataLengths[first] ?? 0) : sub === TABLE_INIT ? (m.elemLengths[first] ?? 0) : 0;
  const table = sub === TABLE_COPY || sub === TABLE_INIT || sub === TABLE_FILL;
  // A table.fill's value waits in a scratch local of the table's type. A non-nullable one's ((ref $t)) has no
  // default, so no local of it can be declared: the value waits in one of the nullable twin ((ref null $t),
  // the same heap type) and goes back through ref.as_non_null, which never traps on it (it was non-null).
  // Left whole, such a fill was bounded by the fuel alone: under Infinity, a loop of 4M-element fills held a
  // 30 ms deadline 70-1,027 ms on Deno and Bun (red40).
  const tableType = sub === TABLE_FILL ? m.tableTypes[first] : undefined;
  const fillType = tableType?.[0] === REF ? Uint8Array.of(REF_NULL, ...tableType.subarray(1)) : tableType;
  const nonNull = fillType !== tableType;
  const splits =
    sub === TABLE_COPY || sub === MEMORY_COPY || sub === MEMORY_FILL || fillType !== undefined ||
    (init && segment > (table ? TABLE_CHUNK_ELEMENTS : BULK_CHUNK_BYTES));
  if (!splits) {
    chargeOperand(m, w, charge);
    w.copy(buf, at, end);
    return true;
  }
  const x = fillType ? refTemp(m, fillType) : m.tempLocal + 1; // the source offset, or the fill value
  if (m.tempLocals < CHUNK_LOCALS || x >= m.tempLocal + m.tempLocals) return false;
  // Memories, or for table.copy tables (its immediates: destination table, source table).
  const [dstMemory, srcMemory] = init ? [second, -1] : sub === MEMORY_COPY || sub === TABLE_COPY ? [first, second] : [first, -1];
  // A chunk's length, and its fuel: what the whole operation is charged for that length.
  const unit = table ? TABLE_CHUNK_ELEMENTS : BULK_CHUNK_BYTES;
  const unitFuel = table ? TABLE_CHUNK_ELEMENTS * 2 ** TABLE_ELEMENT_FUEL_LOG2 : BULK_CHUNK_BYTES; // 1 fuel per byte (BULK_BYTES_PER_FUEL_LOG2)
  const n = m.tempLocal, d = n + 2;
  const op = (): void => w.copy(buf, at, end);
  const get = (local: number): void => (w.u8(LOCAL_GET), w.uleb(local));
  // The source offset, or the fill value (typed as the table takes it).
  const source = (): void => {
    get(x);
    if (nonNull) w.u8(REF_AS_NON_NULL);
  };
  const chunk = (): void => (w.u8(I32_CONST), sleb32(w, unit));
  const add = (local: number, sign: number): void => (get(local), chunk(), w.u8(sign), w.u8(LOCAL_SET), w.uleb(local));
  const more = (): void => (get(n), chunk(), w.u8(I32_GT_U), w.u8(BR_IF), w.u8(0)); // loop while n > chunk

  const whole = (): void => {
    get(d), source(), get(n);
    chargeOperand(m, w, charge); // its scratch local is `n`, which the stack's top holds
    op();
  };

  w.u8(LOCAL_SET), w.uleb(n), w.u8(LOCAL_SET), w.uleb(x), w.u8(LOCAL_SET), w.uleb(d);
  w.u8(0x02), w.u8(0x40), w.u8(0x02), w.u8(0x40), w.u8(0x02), w.u8(0x40); // block $done, block $rest, block $split
  get(n), chunk(), w.u8(I32_GT_U), w.u8(BR_IF), w.u8(0); // n > chunk: split
  // The short operation, as before chunks: its own copy, in straight line from the sets, so an engine that
  // propagates a constant length through the locals still sees one (V8 15 inlines a short constant copy:
  // through the one copy after the loops below, 16-byte copies ran 2.6-3.1x slower on Deno).
  whole(), w.u8(0x0c), w.u8(2), w.u8(END); // br $done; end $split
  // From here every `br_if 0` outside the loops goes to $rest: the operation whole, below.
  outOfBounds(w, d, n, dstMemory, table);
  if (srcMemory >= 0) outOfBounds(w, x, n, srcMemory, table);
  if (init) {
    // Past the segment's end (in 64 bits: no wrap-around), it runs whole: charged, then it traps, as unsplit.
    get(x), w.u8(0xad), get(n), w.u8(0xad), w.u8(0x7c), w.u8(0x42), sleb64(w, segment), w.u8(0x56), w.u8(BR_IF), w.u8(0);
    // Within it, only a dropped segment (its length 0 then) traps: at the first chunk, before writing anything.
  }
  const forward = (): void => {
    w.u8(0x03), w.u8(0x40); // loop
    chargeEngineCall(m, w, unitFuel);
    get(d), source(), chunk(), op();
    add(d, I32_ADD);
    if (!fill) add(x, I32_ADD);
    add(n, I32_SUB);
    more(), w.u8(END);
  };
  if (sub === MEMORY_COPY || sub === TABLE_COPY) {
    get(d), get(x), w.u8(I32_GT_U), w.u8(0x04), w.u8(0x40); // if d > s: from the end
    w.u8(0x03), w.u8(0x40);
    add(n, I32_SUB);
    chargeEngineCall(m, w, unitFuel);
    get(d), get(n), w.u8(I32_ADD), get(x), get(n), w.u8(I32_ADD), chunk(), op();
    more(), w.u8(END);
    w.u8(0x05); // else
    forward();
    w.u8(END);
  } else forward();
  w.u8(END); // $rest
  whole(), w.u8(END); // $done
  m.tempUsed = Math.max(m.tempUsed, CHUNK_LOCALS);
  if (fillType && !m.refTemps.some((t) => sameBytes(t, fillType))) m.refTemps.push(fillType);
  return true;
}

/** The scratch local for a table.fill's value of type `type`: the one already used for it, else the next (code-section.ts declares them). */
function refTemp(m: RewriteInfo, type: Uint8Array): number {
  const k = m.refTemps.findIndex((t) => sameBytes(t, type));
  return m.tempLocal + CHUNK_LOCALS + (k >= 0 ? k : m.refTemps.length);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Signed LEB128 of a non-negative integer below 2^53 (an i64 constant). */
function sleb64(w: Writer, v: number): void {
  for (;;) {
    const byte = v % 0x80;
    v = Math.floor(v / 0x80);
    if (v === 0 && byte < 0x40) return w.u8(byte);
    w.u8(byte | 0x80);
  }
}

/** `br_if 0` when `offset + n` lies past memory `memory`'s end, or table `memory`'s (in 64 bits: no wrap-around). */
function outOfBounds(w: Writer, offset: number, n: number, memory: number, table = false): void {
  w.u8(LOCAL_GET), w.uleb(offset), w.u8(0xad), w.u8(LOCAL_GET), w.uleb(n), w.u8(0xad), w.u8(0x7c); // i64 offset + n
  if (table) w.u8(0xfc), w.uleb(16), w.uleb(memory), w.u8(0xad); // table.size
  else w.u8(0x3f), w.uleb(memory), w.u8(0xad), w.u8(0x42), w.u8(16), w.u8(0x86); // memory.size << 16
  w.u8(0x56), w.u8(BR_IF), w.u8(0); // i64.gt_u
}
