// A deliberately rough shell tokenizer for a guard: quotes and backslashes are
// dropped and everything is split, including text inside quotes. That makes
// `bash -c "rm -rf /"` look like `bash -c rm -rf /`, which is what a guard wants:
// it errs towards seeing a dangerous command where there may be none.

export class Token {
  constructor(public text: string, public isOperator: bool) {}
}

// Longest first, so "||" wins over "|".
const OPERATORS: string[] = ["&&", "||", ">>", "$(", "<(", ";", "&", "|", "(", ")", "`", ">", "<", "\n"];

export function tokenize(command: string): Token[] {
  const tokens: Token[] = [];
  let word = "";
  let i = 0;
  while (i < command.length) {
    const c = command.charAt(i);
    let op = "";
    for (let k = 0; k < OPERATORS.length; k++) {
      if (command.startsWith(OPERATORS[k], i)) {
        op = OPERATORS[k];
        break;
      }
    }
    if (op.length > 0) {
      if (word.length > 0) tokens.push(new Token(word, false));
      word = "";
      tokens.push(new Token(op == "\n" ? ";" : op, true));
      i += op.length;
      continue;
    }
    if (c == " " || c == "\t" || c == "\r") {
      if (word.length > 0) tokens.push(new Token(word, false));
      word = "";
    } else if (c != "'" && c != '"' && c != "\\") {
      word += c;
    }
    i++;
  }
  if (word.length > 0) tokens.push(new Token(word, false));
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
