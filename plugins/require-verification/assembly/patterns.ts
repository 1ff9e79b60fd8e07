// Which shell commands count as "the tests ran". AssemblyScript has no regex
// engine, so `test_pattern` is a `|`-separated list of command phrases, each
// matched as whole words anywhere in the command (`cd app && npm test -- -u`
// matches `npm test`).

export const DEFAULT_PATTERN =
  "npm test|npm run test|npm t|pnpm test|pnpm run test|yarn test|bun test|deno test|npx vitest|vitest|jest|" +
  "pytest|python -m pytest|python3 -m pytest|tox|go test|cargo test|cargo nextest|mvn test|gradle test|./gradlew test|" +
  "make test|make check|ctest|rspec|phpunit|mix test|dotnet test";

/** Whitespace runs as one space, trimmed: `npm   test` and `npm test` are one phrase. */
function squeeze(s: string): string {
  const words = s.replaceAll("\t", " ").replaceAll("\n", " ").split(" ");
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) if (words[i].length > 0) kept.push(words[i]);
  return kept.join(" ");
}

/** Characters that end a word in a command line. */
function isBoundary(c: i32): bool {
  // end, space ; & | ( ) ` " '
  return c < 0 || c == 0x20 || c == 0x3b || c == 0x26 || c == 0x7c || c == 0x28 || c == 0x29 || c == 0x60 || c == 0x22 || c == 0x27;
}

/** Does `phrase` occur in `command` with word boundaries on both sides? */
function hasPhrase(command: string, phrase: string): bool {
  let at = command.indexOf(phrase);
  while (at >= 0) {
    const before = at == 0 ? -1 : command.charCodeAt(at - 1);
    const after = command.charCodeAt(at + phrase.length);
    // A path prefix counts as a boundary too: `./node_modules/.bin/vitest run`.
    if ((isBoundary(before) || before == 0x2f) && isBoundary(after)) return true;
    at = command.indexOf(phrase, at + 1);
  }
  return false;
}

/** The first phrase of `pattern` the command runs, or "". */
export function matchedPhrase(command: string, pattern: string): string {
  const cmd = squeeze(command);
  const phrases = pattern.split("|");
  for (let i = 0; i < phrases.length; i++) {
    const p = squeeze(phrases[i]);
    if (p.length > 0 && hasPhrase(cmd, p)) return p;
  }
  return "";
}
