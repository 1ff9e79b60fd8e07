// A deliberately rough shell tokenizer for a guard: quotes and backslashes are
// dropped and everything is split, including text inside quotes. That makes
// `bash -c "rm -rf /"` look like `bash -c rm -rf /`, which is what a guard wants:
// it errs towards seeing a dangerous command where there may be none.

export class Token {
  constructor(public text: string, public isOperator: bool) {}
}

// The operator starting at `i`, or "" if the character there belongs to a word.
// Works on char codes: building strings per character is what makes guards slow.
function operatorAt(s: string, i: i32): string {
  const c = s.charCodeAt(i);
  const next = i + 1 < s.length ? s.charCodeAt(i + 1) : -1;
  switch (c) {
    case 0x26: return next == 0x26 ? "&&" : "&"; // &
    case 0x7c: return next == 0x7c ? "||" : "|"; // |
    case 0x3e: return next == 0x3e ? ">>" : ">"; // >
    case 0x3c: return next == 0x28 ? "<(" : "<"; // <
    case 0x24: return next == 0x28 ? "$(" : ""; // $
    case 0x3b: return ";";
    case 0x0a: return ";";
    case 0x28: return "(";
    case 0x29: return ")";
    case 0x60: return "`";
    default: return "";
  }
}

// What each ASCII char does to the tokenizer; other chars belong to words.
const WORD: u8 = 0;
const BLANK: u8 = 1; // space, tab, CR: ends a word
const DROPPED: u8 = 2; // ' " \: left out of the word
const MAY_OPERATE: u8 = 3; // may start an operator (operatorAt decides)
const CLASS: StaticArray<u8> = new StaticArray<u8>(128);
CLASS[0x20] = BLANK; CLASS[0x09] = BLANK; CLASS[0x0d] = BLANK;
CLASS[0x27] = DROPPED; CLASS[0x22] = DROPPED; CLASS[0x5c] = DROPPED;
CLASS[0x26] = MAY_OPERATE; CLASS[0x7c] = MAY_OPERATE; CLASS[0x3e] = MAY_OPERATE; CLASS[0x3c] = MAY_OPERATE;
CLASS[0x24] = MAY_OPERATE; CLASS[0x3b] = MAY_OPERATE; CLASS[0x0a] = MAY_OPERATE; CLASS[0x28] = MAY_OPERATE;
CLASS[0x29] = MAY_OPERATE; CLASS[0x60] = MAY_OPERATE;

@inline function classOf(c: i32): u8 {
  return c < 128 ? unchecked(CLASS[c]) : WORD;
}

/**
 * Words and operators, in order. A word is cut out of the command in one
 * substring; only a word holding quotes or backslashes is rebuilt without them.
 */
export function tokenize(command: string): Token[] {
  const tokens: Token[] = [];
  const n = command.length;
  let i = 0;
  while (i < n) {
    const c = command.charCodeAt(i);
    const k = classOf(c);
    if (k == BLANK) {
      i++;
      continue;
    }
    if (k == MAY_OPERATE) {
      const op = operatorAt(command, i);
      if (op.length > 0) {
        tokens.push(new Token(op, true));
        i += c == 0x0a ? 1 : op.length;
        continue;
      }
    }
    const start = i;
    let dropped = false;
    while (i < n) {
      const d = classOf(command.charCodeAt(i));
      if (d == BLANK || (d == MAY_OPERATE && operatorAt(command, i).length > 0)) break;
      if (d == DROPPED) dropped = true;
      i++;
    }
    const word = dropped ? withoutDropped(command, start, i) : command.substring(start, i);
    if (word.length > 0) tokens.push(new Token(word, false));
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
  // By hand: String#lastIndexOf compares a whole string at every position.
  let slash = word.length - 1;
  while (slash >= 0 && word.charCodeAt(slash) != 0x2f) slash--;
  return slash >= 0 ? word.substring(slash + 1) : word;
}

/** The words after `tokens[start]` up to the next operator. */
export function argsAfter(tokens: Token[], start: i32): string[] {
  const args: string[] = [];
  for (let i = start + 1; i < tokens.length && !tokens[i].isOperator; i++) args.push(tokens[i].text);
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
