// Tool-name matching inside the guest. The host does the real regex matching
// and only calls a plugin for bindings that match; the SDK still routes one
// request to the right handler when a plugin has several bindings for an event.
// AssemblyScript has no regex engine, so plain names and `A|B` lists are matched
// exactly, and any other pattern is trusted to the host's decision.

const REGEX_CHARS = "\\^$.[]()*+?{}";

export function matcherAccepts(matcher: string, toolName: string): bool {
  if (matcher.length == 0 || matcher == "*" || matcher == ".*") return true;
  // The host matches the whole name, so anchors and one outer group add nothing.
  let m = matcher;
  if (m.startsWith("^")) m = m.substring(1);
  if (m.endsWith("$") && !m.endsWith("\\$")) m = m.substring(0, m.length - 1);
  if (m.startsWith("(") && m.endsWith(")")) m = m.substring(1, m.length - 1);
  const alternatives = m.split("|");
  for (let i = 0; i < alternatives.length; i++) {
    const alt = alternatives[i];
    if (!isPlainName(alt)) return true;
    if (alt == toolName) return true;
  }
  return false;
}

function isPlainName(s: string): bool {
  for (let i = 0; i < s.length; i++) {
    if (REGEX_CHARS.includes(s.charAt(i))) return false;
  }
  return true;
}
