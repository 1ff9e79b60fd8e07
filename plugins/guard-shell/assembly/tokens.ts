// A deliberately rough shell tokenizer for a guard: quotes and backslashes are
// dropped and everything is split, including text inside quotes. That makes
// `bash -c "rm -rf /"` look like `bash -c rm -rf /`, which is what a guard wants:
// it errs towards seeing a dangerous command where there may be none.
//
// Tokens are spans of the command, not strings: a 100 KB heredoc is ~25,000
// words, and an object plus a string per word cost more than everything else
// the guard does. A word becomes a string only when a rule wants its text.

/** Operators, by code (0 is a word). */
export const OP_AND_AND = 1;
export const OP_AND = 2;
export const OP_OR_OR = 3;
export const OP_PIPE = 4;
export const OP_APPEND = 5;
export const OP_REDIRECT = 6;
export const OP_PROCESS_SUB = 7; // <(
export const OP_LT = 8;
export const OP_COMMAND_SUB = 9; // $(
export const OP_SEMI = 10; // ; and newline
export const OP_OPEN = 11;
export const OP_CLOSE = 12;
export const OP_BACKTICK = 13;
const OP_TEXT: string[] = ["", "&&", "&", "||", "|", ">>", ">", "<(", "<", "$(", ";", "(", ")", "`"];
const OP_LENGTH: StaticArray<i32> = [0, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 1, 1, 1];
/** A word holding quotes or backslashes: its text is rebuilt without them. */
const DROPPED_WORD = -1;

// The operator starting at `i`, or 0 if the character there belongs to a word.
function operatorAt(s: string, i: i32): i32 {
  const c = s.charCodeAt(i);
  const next = s.charCodeAt(i + 1); // -1 past the end
  switch (c) {
    case 0x26: return next == 0x26 ? OP_AND_AND : OP_AND; // &
    case 0x7c: return next == 0x7c ? OP_OR_OR : OP_PIPE; // |
    case 0x3e: return next == 0x3e ? OP_APPEND : OP_REDIRECT; // >
    case 0x3c: return next == 0x28 ? OP_PROCESS_SUB : OP_LT; // <
    case 0x24: return next == 0x28 ? OP_COMMAND_SUB : 0; // $
    case 0x3b: return OP_SEMI;
    case 0x0a: return OP_SEMI;
    case 0x28: return OP_OPEN;
    case 0x29: return OP_CLOSE;
    case 0x60: return OP_BACKTICK;
    default: return 0;
  }
}

// What each ASCII char does to the tokenizer; other chars belong to words.
const WORD: u8 = 0;
const BLANK: u8 = 1; // space, tab, CR: ends a word
const DROPPED: u8 = 2; // ' " \: left out of the word
const MAY_OPERATE: u8 = 3; // may start an operator (operatorAt decides)
const SLASH: u8 = 4; // a word char; the program name starts after the last one
const CLASS: StaticArray<u8> = new StaticArray<u8>(128);
CLASS[0x20] = BLANK; CLASS[0x09] = BLANK; CLASS[0x0d] = BLANK;
CLASS[0x27] = DROPPED; CLASS[0x22] = DROPPED; CLASS[0x5c] = DROPPED;
CLASS[0x26] = MAY_OPERATE; CLASS[0x7c] = MAY_OPERATE; CLASS[0x3e] = MAY_OPERATE; CLASS[0x3c] = MAY_OPERATE;
CLASS[0x24] = MAY_OPERATE; CLASS[0x3b] = MAY_OPERATE; CLASS[0x0a] = MAY_OPERATE; CLASS[0x28] = MAY_OPERATE;
CLASS[0x29] = MAY_OPERATE; CLASS[0x60] = MAY_OPERATE;
CLASS[0x2f] = SLASH;

@inline function classOf(c: i32): u8 {
  return c < 128 ? unchecked(CLASS[c]) : WORD;
}

/** The words and operators of a command, in order, as spans of it. */
export class Tokens {
  // Three cells (12 bytes) per token: start, end, and (name offset << 8 | kind): the program
  // name starts `name offset` chars after the start (after the last `/`); kind is an OP_ code,
  // 0 for a word, or DROPPED_WORD: a word kept as a string (its quotes and backslashes dropped),
  // whose first cell is its index in `texts` and `names`. Read unchecked after one bounds check
  // of the token index.
  private cells: StaticArray<i32> = new StaticArray<i32>(192);
  private count: i32 = 0;
  private texts: string[] = [];
  private names: string[] = [];

  constructor(public command: string) {}

  get length(): i32 { return this.count; }

  /** A word or an operator, as a span of the command. */
  add(start: i32, nameStart: i32, end: i32, kind: i32): void {
    // A name offset of 24 bits or more would not survive the packing: such a word (16 MB before
    // its last `/`) is kept as a string, like a word with quotes.
    if (nameStart - start >= 1 << 24) {
      this.addText(this.command.substring(start, end));
      return;
    }
    this.push(start, end, (nameStart - start) << 8 | kind);
  }

  /** A word kept as a string; its program name is worked out once, here. */
  addText(text: string): void {
    this.push(this.texts.length, 0, DROPPED_WORD & 0xff);
    this.texts.push(text);
    this.names.push(programName(text));
  }

  private push(a: i32, b: i32, packed: i32): void {
    const used = this.count * 3;
    if (used + 3 > this.cells.length) {
      const next = new StaticArray<i32>(this.cells.length << 1);
      memory.copy(changetype<usize>(next), changetype<usize>(this.cells), <usize>used << 2);
      this.cells = next;
    }
    const at = changetype<usize>(this.cells) + (<usize>used << 2);
    store<i32>(at, a);
    store<i32>(at, b, 4);
    store<i32>(at, packed, 8);
    this.count++;
  }

  // The address of token i's cells; the one bounds check of every read.
  @inline private at(i: i32): usize {
    assert(<u32>i < <u32>this.count, "token index out of range");
    return changetype<usize>(this.cells) + <usize>i * 12;
  }

  @inline private start(i: i32): i32 { return load<i32>(this.at(i)); }
  @inline private end(i: i32): i32 { return load<i32>(this.at(i), 4); }
  @inline private nameStart(i: i32): i32 {
    const at = this.at(i);
    return load<i32>(at) + (load<i32>(at, 8) >>> 8);
  }
  // Sign-extended: DROPPED_WORD is -1.
  @inline private kind(i: i32): i32 { return <i32>load<i8>(this.at(i), 8); }

  /** The operator code of token `i`, or 0 for a word. */
  op(i: i32): i32 {
    const kind = this.kind(i);
    return kind > 0 ? kind : 0;
  }

  isOperator(i: i32): bool { return this.op(i) != 0; }

  /** The token's text (a new string; the rules ask only for the few words they inspect). */
  text(i: i32): string {
    const kind = this.kind(i);
    if (kind > 0) return OP_TEXT[kind];
    if (kind == DROPPED_WORD) return this.texts[this.start(i)];
    return this.command.substring(this.start(i), this.end(i));
  }

  /** `/usr/bin/rm` → `rm`; "" for an operator. */
  name(i: i32): string {
    const kind = this.kind(i);
    if (kind > 0) return "";
    if (kind == DROPPED_WORD) return this.names[this.start(i)];
    return this.command.substring(this.nameStart(i), this.end(i));
  }

  /** Is the program name of word `i` exactly `word`? Compared in place. */
  nameIs(i: i32, word: string): bool {
    const kind = this.kind(i);
    if (kind > 0) return false;
    if (kind == DROPPED_WORD) return this.name(i) == word;
    const from = this.nameStart(i);
    return this.end(i) - from == word.length && this.command.startsWith(word, from);
  }

  nameIn(i: i32, words: string[]): bool {
    for (let k = 0; k < words.length; k++) if (this.nameIs(i, words[k])) return true;
    return false;
  }

  nameStartsWith(i: i32, prefix: string): bool {
    const kind = this.kind(i);
    if (kind > 0) return false;
    if (kind == DROPPED_WORD) return this.name(i).startsWith(prefix);
    const from = this.nameStart(i);
    return this.end(i) - from >= prefix.length && this.command.startsWith(prefix, from);
  }

  /** The first char of word `i`'s program name; -1 for an operator or an empty name. */
  nameFirst(i: i32): i32 {
    const kind = this.kind(i);
    if (kind > 0) return -1;
    if (kind == DROPPED_WORD) return this.name(i).charCodeAt(0);
    const from = this.nameStart(i);
    return from < this.end(i) ? this.command.charCodeAt(from) : -1;
  }
}

export function tokenize(command: string): Tokens {
  const tokens = new Tokens(command);
  const n = command.length;
  // Char codes are read straight from the string: charCodeAt's bounds check, per char, was a third of the cost.
  const base = changetype<usize>(command);
  let i = 0;
  while (i < n) {
    const c = <i32>load<u16>(base + (<usize>i << 1));
    const k = classOf(c);
    if (k == BLANK) {
      i++;
      continue;
    }
    if (k == MAY_OPERATE) {
      const op = operatorAt(command, i);
      if (op != 0) {
        tokens.add(i, i, i + unchecked(OP_LENGTH[op]), op);
        i += c == 0x0a ? 1 : unchecked(OP_LENGTH[op]);
        continue;
      }
    }
    const start = i;
    let nameStart = i;
    let dropped = false;
    while (i < n) {
      const d = classOf(<i32>load<u16>(base + (<usize>i << 1)));
      if (d == WORD) {
        i++;
        continue;
      }
      if (d == BLANK || (d == MAY_OPERATE && operatorAt(command, i) != 0)) break;
      if (d == DROPPED) dropped = true;
      i++;
      if (d == SLASH) nameStart = i;
    }
    // A word of quotes alone (`""`) is no word, as before: its text is empty.
    if (dropped) {
      const text = withoutDropped(command, start, i);
      if (text.length > 0) tokens.addText(text);
    } else {
      tokens.add(start, nameStart, i, 0);
    }
  }
  return tokens;
}

// `command[start, end)` without its quotes and backslashes.
function withoutDropped(command: string, start: i32, end: i32): string {
  const kept: i32[] = [];
  for (let i = start; i < end; i++) {
    const c = command.charCodeAt(i);
    if (classOf(c) != DROPPED) kept.push(c);
  }
  return String.fromCharCodes(kept);
}

/** `/usr/bin/rm` → `rm`. */
export function programName(word: string): string {
  let slash = word.length - 1;
  while (slash >= 0 && word.charCodeAt(slash) != 0x2f) slash--;
  return slash >= 0 ? word.substring(slash + 1) : word;
}

/** The words after token `start` up to the next operator. */
export function argsAfter(tokens: Tokens, start: i32): string[] {
  const args: string[] = [];
  for (let i = start + 1; i < tokens.length && !tokens.isOperator(i); i++) args.push(tokens.text(i));
  return args;
}

/** `-rf`, `-R`, `--recursive`: does this flag list ask for recursion? */
export function hasRecursiveFlag(args: string[]): bool {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a == "--recursive") return true;
    if (a.startsWith("-") && !a.startsWith("--") && (a.includes("r") || a.includes("R"))) return true;
  }
  return false;
}
