// Building a string out of another one's pieces in one allocation. Plugins run
// under the minimal runtime, which collects only after a call: every
// intermediate string (`+=`, substrings pushed to an array and joined) stays
// in memory until the call ends, so a 1 MB text edited that way costs several
// of its own size.

/** One replacement: `text[start, end)` becomes `replacement`. */
export class TextEdit {
  constructor(public start: i32, public end: i32, public replacement: string) {}
}

/**
 * `text` with every edit applied, written once into a string of its final
 * length. Edits must be in order and must not overlap (a programming error
 * traps). Example: `spliceText("a key b", [new TextEdit(2, 5, "***")])` → `"a *** b"`.
 */
export function spliceText(text: string, edits: TextEdit[]): string {
  if (edits.length == 0) return text;
  let units = text.length;
  let prev = 0;
  for (let i = 0; i < edits.length; i++) {
    const e = edits[i];
    assert(e.start >= prev && e.end >= e.start && e.end <= text.length, "spliceText: edits overlap, are out of order or out of range");
    units += e.replacement.length - (e.end - e.start);
    prev = e.end;
  }
  const out = __new(<usize>units << 1, idof<string>());
  const src = changetype<usize>(text);
  let dst = out;
  let copied = 0;
  for (let i = 0; i < edits.length; i++) {
    const e = edits[i];
    const keep = <usize>(e.start - copied) << 1;
    memory.copy(dst, src + (<usize>copied << 1), keep);
    dst += keep;
    const r = <usize>e.replacement.length << 1;
    memory.copy(dst, changetype<usize>(e.replacement), r);
    dst += r;
    copied = e.end;
  }
  memory.copy(dst, src + (<usize>copied << 1), <usize>(text.length - copied) << 1);
  return changetype<string>(out);
}
