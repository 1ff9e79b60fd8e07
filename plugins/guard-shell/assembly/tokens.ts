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

export function tokenize(command: string): Token[] {
  const tokens: Token[] = [];
  const word: i32[] = [];
  let i = 0;
  while (i < command.length) {
    const op = operatorAt(command, i);
    const c = command.charCodeAt(i);
    const blank = c == 0x20 || c == 0x09 || c == 0x0d;
    if ((op.length > 0 || blank) && word.length > 0) {
      tokens.push(new Token(String.fromCharCodes(word), false));
      word.length = 0;
    }
    if (op.length > 0) {
      tokens.push(new Token(op, true));
      i += c == 0x0a ? 1 : op.length;
      continue;
    }
    if (!blank && c != 0x27 && c != 0x22 && c != 0x5c) word.push(c); // drop ' " and \
    i++;
  }
  if (word.length > 0) tokens.push(new Token(String.fromCharCodes(word), false));
  return tokens;
}

/** `/usr/bin/rm` → `rm`. */
export function programName(word: string): string {
  const slash = word.lastIndexOf("/");
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
