/**
 * What follows each opcode, as data. The walker in `code.ts` switches on
 * these kinds; adding an opcode is one table entry.
 */
export const enum Imm {
  Invalid = 0,
  None,
  Block, // block, if, try: block type, opens a control frame
  Loop, // loop: block type, opens a control frame and a fuel region
  End, // end: closes a frame (or the body)
  Leb, // one LEB128 index or value
  Leb2, // two LEB128s
  Func, // function index: renumbered
  Global, // global index: checked against the original count
  MemArg, // align (bit 6: memory index follows), offset
  BrTable,
  Bytes4,
  Bytes8,
  SelectT, // vec of value types
  HeapType,
  TryTable,
  Delegate, // legacy EH: label index, closes a try frame
  PrefixFC,
  PrefixFD,
  PrefixFE,
  Br, // br, br_if, br_on_null, br_on_non_null: label; leaves the function if it names the body
  Exit, // unreachable, return, throw, throw_ref, return_call_indirect, return_call_ref: leaves the function
  CallIndirect, // call_indirect (type, table), call_ref (type): may run any function
  Arm, // else, catch (tag), catch_all: starts another arm of the enclosing frame (a fuel block); catch/catch_all start a handler (handlers.ts)
  Grow, // memory.grow (charged by its operand), table.set (a check of its own): one index (bulk.ts)
}

/**
 * Locals an engine zero-fills at every call for free, in weight units (a v128 local counts 2): past this,
 * a call pays 1 per unit at entry (`localsFuel`). A function's frame is zeroed on entry, and past ~1,000
 * locals the engines' optimising tiers give up on it: a loop calling a function of 40,000 v128 locals
 * that does nothing ran 360 ns per fuel on Node 20, 380 on Deno, 2,400 on Bun (2,000 i64 locals: 1.8,
 * 9.6, 44), where the call and the entry charged ~16 fuel whatever the locals (rv13). 256 of any type
 * measured as cheap as none, and real code declares a few dozen.
 */
const FREE_LOCAL_UNITS = 256;
/** The fuel a call pays at entry for `units` of declared locals (1 per local, 2 per v128). */
export function localsFuel(units: number): number {
  return Math.max(0, units - FREE_LOCAL_UNITS);
}

/** Immediate kind per single-byte opcode. */
export const OP_IMM = new Uint8Array(256);
/** Fuel weight per single-byte opcode. */
export const OP_WEIGHT = new Uint8Array(256).fill(1);

/** Heavier weights: calls leave the region's accounting to the callee's entry check only in part. */
const WEIGHT_CALL = 5;
const WEIGHT_MEMORY_GROW = 100;
/**
 * The fixed part of memory.copy/fill/init and the table ops: about a call's
 * worth (the length is charged apart, at run time). Compilers emit small
 * copies by the thousand (AssemblyScript builds strings with them), so a
 * larger constant made string-heavy plugins pay ~10× the fuel per µs of
 * other code.
 */
const WEIGHT_BULK = 5;
/**
 * Loops one function may nest inside each other. JavaScriptCore (Bun 1.4) compiles a function of deeply
 * nested loops on a background thread in time that grows about as the square of the depth, after the
 * call that ran it has returned, where no deadline, fuel or abort reaches: 10,000 nested loops cost
 * 0.16 s of CPU, 30,000 1.8 s, 100,000 (a 300 KB module, run once) a core for over 12 s, and the next
 * load waited 27–74 s. Per byte it still shows at 1,000 (500 such functions, 1.5 MB: 0.75 s) and is
 * gone at 100 (5,000 functions of 100, 1.6 MB: 7 ms, as 50,000 of 10). V8 is not affected. Real code
 * nests loops a few deep. Both metering modes refuse deeper nesting (measured, red7).
 */
export const MAX_LOOP_DEPTH = 100;
/** The refusal for a loop nested past MAX_LOOP_DEPTH (reader's `fail` adds the function and offset). */
export const LOOP_DEPTH_MESSAGE = `loops nested more than ${MAX_LOOP_DEPTH} deep (JavaScriptCore's background compiler takes time growing with the square of the depth, out of every deadline's reach)`;
/**
 * memory.init/copy/fill also pay 1 fuel per byte (2^0), charged at run time (bulk.ts); the host pays
 * the same rate for the bytes it moves (hostcalls.ts, host-call.ts). Calibrated against the cheapest
 * work per unit a plugin can pick: a weight unit of ordinary code takes 0.05–0.12 ns on this machine,
 * and engines copy 8 MiB out of cache at 0.1–0.36 ns a byte (fill and copy in cache 0.01–0.07). At 1
 * per 16 bytes (before red7) a budget of such copies ran 5–20× as long as the same budget of
 * arithmetic (stopped only by the deadline; with `timeoutMs: Infinity`, by nothing else); now 1.2–3.3×.
 */
export const BULK_BYTES_PER_FUEL_LOG2 = 0;
/**
 * A memory.init/copy/fill of 0 bytes is counted as 2^9 = 512 bytes (bulk.ts): on Node 20 it costs the
 * engine 95-110 ns (a slow path; 1 byte costs 5 ns), where its fixed weight of 5 ran 10-12 ns per fuel,
 * 250x ordinary code (rv13). Only the empty operation pays: compilers emit small copies by the thousand.
 */
export const BULK_ZERO_LENGTH_LOG2 = 9;
/** table.init/copy/fill also pay 2^10 = 1024 fuel per element, charged at run time (bulk.ts): engines take 50–150 ns an element (64, before red7, was 8–30× cheap). */
export const TABLE_ELEMENT_FUEL_LOG2 = 10;
/**
 * table.grow pays 2^6 = 64 per element: like memory.grow, what grows is bounded per instance by the cap
 * (maxTableElements), and a grow past it (a probe, charged up to the cap) costs the engine nothing.
 */
export const TABLE_GROW_FUEL_LOG2 = 6;
/**
 * The most elements one table.grow may add; a larger grow fails (-1) without growing (bulk.ts
 * `failAbove`). The engine initialises each new element inside the one instruction, out of the meter's
 * reach: 100,000 took 9-43 ms on Node 20, Deno 2.9 and Bun 1.4 (loaded 2-core machine), within the
 * deadline's slack; a grow of the whole cap (up to 10,000,000 elements) took seconds.
 */
export const TABLE_GROW_MAX_ELEMENTS = 100_000;
/** table.set, elem.drop, memory.atomic.notify and atomic.fence pay this at a check of their own (bulk.ts): 50–150 ns each, as a table element (a fence: 5–36 ns, red12). */
export const ENGINE_CALL_FUEL = 1024;
/**
 * throw, rethrow and throw_ref pay this at a check of their own (bulk.ts). A throw the plugin catches
 * costs the engine 0.8–2.9 µs (an exception object, the unwind, the handler's gate; measured red11:
 * Node 20 2.9 µs, Deno 0.8, Bun 0.85), where its weight of 1 charged 1 fuel: a loop of caught throws
 * ran 200–1,400× longer per fuel than ordinary code, so with `timeoutMs: Infinity` a budget meant for
 * ~0.1 s of CPU bought minutes. At 16,384 a throw costs 0.05–0.18 ns per fuel, ordinary code's rate.
 */
export const THROW_FUEL = 16_384;
/**
 * memory.grow also pays 2^12 = 4096 fuel per page, charged at run time (bulk.ts). Not the byte rate: what
 * grows is bounded per instance by the memory cap (256 pages, ≈ 2.3 ms on V8 in all), and a grow that fails
 * (a probe past the cap) costs the engine next to nothing, yet is charged for what it asked, up to the cap:
 * at 65536 a page, a module probing each of 64 memories for 255 pages spent the whole default budget.
 */
export const MEMORY_PAGE_FUEL_LOG2 = 12;
/**
 * A memory.grow of 0 pages (a size probe) is counted as 2^0 = 1 page (bulk.ts): the engine call costs
 * ~245 ns on Node 20 (40-50 ns on Deno and Bun) whatever it asks, where the fixed weight of 100 ran
 * 2.3 ns per fuel on Node (rv13).
 */
export const GROW_ZERO_PAGES_LOG2 = 0;

/**
 * Integer division and remainder (i32/i64 div_s, div_u, rem_s, rem_u), and f32/f64 div and sqrt: a
 * chain of them, each waiting for the last, takes 8-40 cycles an instruction where ordinary code
 * retires one or more a cycle. At weight 1 a loop of dependent divisions ran 0.6-1.2 ns per fuel
 * against ordinary code's 0.05-0.12 (measured red12, Node 20: i64.div_u 0.63-0.89, i64.div_s
 * 0.88-1.19, i32.div_u 0.84-1.11, f64.div 0.75): a budget meant for ~0.1 s of CPU bought ~1 s where
 * no deadline stops it first. At 24 such a loop costs about what ordinary code does per fuel.
 */
const WEIGHT_DIVIDE = 24;
/**
 * table.get reads through the engine's table object (a funcref may be made lazily): 2-7 ns each, where a
 * loop of them at weight 1 ran 0.2-1.7 ns per fuel (measured red12; externref on Node the slowest).
 */
const WEIGHT_TABLE_GET = 48;
/**
 * call_indirect, return_call_indirect, call_ref, return_call_ref: a table read, a signature check and
 * (threaded fuel, code-section.ts) a write-back, the thin wrapper's global sync and a reload around an
 * ordinary call. A loop of them to a function that does nothing ran 0.8-1.2 ns per fuel at weight 5 on
 * Node 20 (5-10 ns each; 0.25-0.58 on Bun), 10-24x ordinary code; at 24 it runs at 0.2-0.4 (rv13).
 * A direct `call` (5) runs at 0.04-0.44 ns per fuel: it passes the counter in a register.
 */
const WEIGHT_CALL_INDIRECT = 24;
/**
 * The trapping float-to-int conversions (`trunc`, not `trunc_sat`): range checks and, for the unsigned
 * 64-bit ones, a branchy sequence. A chain of i64.trunc_f64_u ran 0.6-0.74 ns per fuel at weight 1 on
 * Node, Deno and Bun (rv13).
 */
const WEIGHT_TRUNC = 8;
const TRUNCS = [0xa8, 0xa9, 0xaa, 0xab, 0xae, 0xaf, 0xb0, 0xb1];
/**
 * memory.init's fixed part and data.drop: both call into the engine (a segment lookup), 10-19 ns each on
 * Deno and Bun (Deno: 19-33 ns), where memory.init's fixed weight of 5 and data.drop's 1 ran 0.5-2.2 ns per
 * fuel (rv13; at 48 memory.init still ran 0.57 on Deno).
 */
const WEIGHT_SEGMENT = 128;
const DIVIDES = [0x6d, 0x6e, 0x6f, 0x70, 0x7f, 0x80, 0x81, 0x82, 0x91, 0x95, 0x9f, 0xa3];

function set(imm: Imm, ...ops: number[]): void {
  for (const op of ops) OP_IMM[op] = imm;
}
function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

set(Imm.None, 0x00, 0x01, 0x05, 0x0a, 0x0f, 0x19, 0x1a, 0x1b, 0xd1, 0xd3, 0xd4);
set(Imm.Block, 0x02, 0x04, 0x06);
set(Imm.Loop, 0x03);
set(Imm.End, 0x0b);
// throw, rethrow, catch, br, br_if, local.*, table.get/set, memory.size/grow,
// call_ref, return_call_ref, br_on_null, br_on_non_null
set(Imm.Leb, 0x07, 0x08, 0x09, 0x0c, 0x0d, 0x14, 0x15, 0x20, 0x21, 0x22, 0x25, 0x26, 0x3f, 0x40, 0xd5, 0xd6);
set(Imm.Leb2, 0x11, 0x13); // call_indirect, return_call_indirect: type, table
// Kinds the fuel local cares about (fuel.ts), overriding the plain kinds above.
set(Imm.Br, 0x0c, 0x0d, 0xd5, 0xd6);
set(Imm.Exit, 0x00, 0x0f, 0x08, 0x0a, 0x13, 0x15);
set(Imm.CallIndirect, 0x11, 0x14);
set(Imm.Arm, 0x05, 0x07, 0x19);
set(Imm.Exit, 0x09); // rethrow: label
set(Imm.Grow, 0x40, 0x26); // memory.grow, table.set
set(Imm.Func, 0x10, 0x12, 0xd2); // call, return_call, ref.func
set(Imm.Global, 0x23, 0x24);
set(Imm.MemArg, ...range(0x28, 0x3e));
set(Imm.BrTable, 0x0e);
set(Imm.Leb, 0x41, 0x42); // i32.const, i64.const
set(Imm.Bytes4, 0x43);
set(Imm.Bytes8, 0x44);
set(Imm.None, ...range(0x45, 0xc4)); // numeric, conversions, sign extension
set(Imm.SelectT, 0x1c);
set(Imm.HeapType, 0xd0);
set(Imm.TryTable, 0x1f);
set(Imm.Delegate, 0x18);
set(Imm.PrefixFC, 0xfc);
set(Imm.PrefixFD, 0xfd);
set(Imm.PrefixFE, 0xfe);

for (const op of [0x10, 0x12]) OP_WEIGHT[op] = WEIGHT_CALL;
for (const op of [0x11, 0x13, 0x14, 0x15]) OP_WEIGHT[op] = WEIGHT_CALL_INDIRECT;
for (const op of TRUNCS) OP_WEIGHT[op] = WEIGHT_TRUNC;
for (const op of DIVIDES) OP_WEIGHT[op] = WEIGHT_DIVIDE;
OP_WEIGHT[0x25] = WEIGHT_TABLE_GET;
OP_WEIGHT[0x40] = WEIGHT_MEMORY_GROW;
// Structure markers are free: they compile to nothing.
for (const op of [0x02, 0x03, 0x05, 0x0b]) OP_WEIGHT[op] = 0;

/** 0xFC sub-opcodes: number of LEB128 immediates, or -1 if unknown. */
export const FC_LEBS = [0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 2, 1, 2, 1, 2, 1, 1, 1];
export function fcWeight(sub: number): number {
  if (sub === 15) return WEIGHT_MEMORY_GROW; // table.grow
  if (sub === 8 || sub === 9) return WEIGHT_SEGMENT; // memory.init, data.drop
  return sub >= 8 && sub !== 9 && sub !== 13 && sub !== 16 ? WEIGHT_BULK : 1;
}

/** 0xFD sub-opcodes of the SIMD divides: f32x4.sqrt, f32x4.div, f64x2.sqrt, f64x2.div (1.0-2.1 ns per fuel at weight 1, measured red12). */
const SIMD_DIVIDES = new Set([0xe3, 0xe7, 0xef, 0xf3]);
/** The weight of 0xFD sub-opcode `sub`: the SIMD divides weigh what the scalar ones do (WEIGHT_DIVIDE). */
export function fdWeight(sub: number): number {
  return SIMD_DIVIDES.has(sub) ? WEIGHT_DIVIDE : 1;
}

/**
 * 0xFE (threads) atomic stores, read-modify-writes and compare-exchanges (0x17-0x4E) are locked
 * instructions (x86 `xchg`, `lock xadd`, `lock cmpxchg`: ~20 cycles each, and more in a chain): at
 * weight 1 a loop of them ran 0.8-1.9 ns per fuel (measured red12, Node and Bun), 10-30x ordinary
 * code. Atomic loads are plain loads. `atomic.fence` (0x03) pays ENGINE_CALL_FUEL at a check of its
 * own, like `memory.atomic.notify` (5-36 ns each: 50-360x ordinary code at weight 1).
 */
const WEIGHT_ATOMIC = 48;
/** The weight of 0xFE sub-opcode `sub` (fence and notify are charged at checks of their own, walk-rare.ts and exact.ts). */
export function feWeight(sub: number): number {
  return sub >= 0x17 && sub <= 0x4e ? WEIGHT_ATOMIC : 1;
}

export const enum Simd {
  None = 1,
  MemArg,
  MemArgLane,
  Bytes16,
  Lane,
}

/** 0xFD sub-opcodes up to the relaxed-SIMD range (0x113); 0 = unknown. */
export const SIMD_IMM = new Uint8Array(0x114).fill(Simd.None);
for (let i = 0; i <= 11; i++) SIMD_IMM[i] = Simd.MemArg;
SIMD_IMM[12] = Simd.Bytes16; // v128.const
SIMD_IMM[13] = Simd.Bytes16; // i8x16.shuffle
for (let i = 21; i <= 34; i++) SIMD_IMM[i] = Simd.Lane;
for (let i = 84; i <= 91; i++) SIMD_IMM[i] = Simd.MemArgLane;
SIMD_IMM[92] = Simd.MemArg;
SIMD_IMM[93] = Simd.MemArg;
// Holes in the opcode space.
for (const i of [0x9a, 0xa2, 0xa5, 0xa6, 0xaf, 0xb0, 0xb2, 0xb3, 0xb4, 0xbb, 0xc2, 0xc5, 0xc6, 0xcf, 0xd0, 0xd2, 0xd3, 0xd4, 0xe2, 0xee])
  SIMD_IMM[i] = 0;
for (let i = 0x100; i <= 0x113; i++) SIMD_IMM[i] = Simd.None;

/** 0xFE (threads): 0x03 is atomic.fence with one 0x00 byte; 0x00–0x02, 0x10–0x4E take a memarg. */
export function atomicHasMemArg(sub: number): boolean {
  return sub <= 0x02 || (sub >= 0x10 && sub <= 0x4e);
}
