import { FC_LEBS, Imm, OP_IMM, SIMD_IMM, Simd, atomicHasMemArg } from './opcodes.js';
import type { Reader } from './reader.js';

/** Immediates of the rarer opcodes, through the bounds-checked reader. */
export function rareImmediates(r: Reader, op: number, at: number): void {
  switch (OP_IMM[op] as Imm) {
    case Imm.BrTable: {
      const n = r.u32();
      for (let i = 0; i <= n; i++) r.skipLeb();
      return;
    }
    case Imm.SelectT: {
      const n = r.u32();
      for (let i = 0; i < n; i++) r.skipValType();
      return;
    }
    case Imm.HeapType:
      return r.skipLeb();
    case Imm.TryTable: {
      r.skipBlockType();
      const n = r.u32();
      for (let i = 0; i < n; i++) {
        const kind = r.u8();
        if (kind > 3) r.fail(`unknown catch kind ${kind}`);
        if (kind < 2) r.skipLeb(); // tag
        r.skipLeb(); // label
      }
      return;
    }
    case Imm.Delegate:
      return r.skipLeb();
    case Imm.PrefixFC: {
      const sub = r.u32();
      const lebs = FC_LEBS[sub];
      if (lebs === undefined) r.fail(`unknown opcode 0xfc ${sub}`, at);
      for (let i = 0; i < lebs; i++) r.skipLeb();
      return;
    }
    case Imm.PrefixFD:
      return simd(r, at);
    case Imm.PrefixFE: {
      const sub = r.u32();
      if (sub === 0x03) r.skip(1);
      else if (atomicHasMemArg(sub)) memArg(r);
      else r.fail(`unknown opcode 0xfe ${sub}`, at);
      return;
    }
    case Imm.Invalid:
      return r.fail(`unknown opcode 0x${op.toString(16).padStart(2, '0')}`, at);
    case Imm.None:
    case Imm.Block:
    case Imm.Loop:
    case Imm.End:
    case Imm.Leb:
    case Imm.Leb2:
    case Imm.Func:
    case Imm.Global:
    case Imm.MemArg:
    case Imm.Bytes4:
    case Imm.Bytes8:
    case Imm.Br:
    case Imm.Exit:
    case Imm.CallIndirect:
    case Imm.Arm:
      return r.fail(`opcode 0x${op.toString(16)} reached the slow path`, at); // handled inline
  }
}

function memArg(r: Reader): void {
  if (r.u32() & 0x40) r.skipLeb();
  r.skipLeb();
}

function simd(r: Reader, at: number): void {
  const sub = r.u32();
  switch ((SIMD_IMM[sub] ?? 0) as Simd | 0) {
    case Simd.None:
      return;
    case Simd.MemArg:
      return memArg(r);
    case Simd.MemArgLane:
      memArg(r);
      return r.skip(1);
    case Simd.Bytes16:
      return r.skip(16);
    case Simd.Lane:
      return r.skip(1);
    default:
      r.fail(`unknown opcode 0xfd ${sub}`, at);
  }
}

