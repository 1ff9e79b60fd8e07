// A strict JSON parser (RFC 8259) that reports errors instead of trapping.

import { JsonKind, JsonValue } from "./value";
import { decodeValidated, hexValue, plainRun, unescapeLetter } from "./strings";

const MAX_DEPTH = 128;

/** The outcome of `parseJson`: a value, or an error naming the offset. */
export class JsonParseResult {
  constructor(public value: JsonValue, public error: string) {}
  get ok(): bool { return this.error.length == 0; }
}

/** Parses a JSON text. Example: `parseJson('{"a":1}').value.getNumber("a")` → 1. */
export function parseJson(text: string): JsonParseResult {
  const p = new Parser(text);
  p.ws();
  const v = p.value(0);
  p.ws();
  if (!p.failed && p.pos < text.length) p.fail("unexpected text after the value");
  return new JsonParseResult(p.failed ? new JsonValue() : v, p.error);
}

class Parser {
  pos: i32 = 0;
  error: string = "";

  constructor(public s: string) {}

  get failed(): bool { return this.error.length > 0; }

  fail(message: string): void {
    if (!this.failed) this.error = message + " at offset " + this.pos.toString();
  }

  ws(): void {
    while (this.pos < this.s.length) {
      const c = this.s.charCodeAt(this.pos);
      if (c != 0x20 && c != 0x0a && c != 0x0d && c != 0x09) return;
      this.pos++;
    }
  }

  peek(): i32 {
    return this.pos < this.s.length ? this.s.charCodeAt(this.pos) : -1;
  }

  value(depth: i32): JsonValue {
    const v = new JsonValue();
    if (depth > MAX_DEPTH) {
      this.fail("nesting deeper than " + MAX_DEPTH.toString());
      return v;
    }
    const c = this.peek();
    if (c == 0x7b) this.object(v, depth);
    else if (c == 0x5b) this.array(v, depth);
    else if (c == 0x22) {
      v.kind = JsonKind.String;
      v.stringValue = this.string();
    } else if (c == 0x2d || (c >= 0x30 && c <= 0x39)) this.number(v);
    else if (this.literal("true")) { v.kind = JsonKind.Bool; v.boolValue = true; }
    else if (this.literal("false")) { v.kind = JsonKind.Bool; }
    else if (this.literal("null")) { v.kind = JsonKind.Null; }
    else this.fail(c < 0 ? "unexpected end of input" : "unexpected character");
    return v;
  }

  literal(word: string): bool {
    if (this.s.substr(this.pos, word.length) != word) return false;
    this.pos += word.length;
    return true;
  }

  object(v: JsonValue, depth: i32): void {
    v.kind = JsonKind.Object;
    this.pos++;
    this.ws();
    if (this.peek() == 0x7d) { this.pos++; return; }
    while (!this.failed) {
      this.ws();
      if (this.peek() != 0x22) { this.fail("expected a string key"); return; }
      const key = this.string();
      this.ws();
      if (this.peek() != 0x3a) { this.fail("expected ':'"); return; }
      this.pos++;
      this.ws();
      const item = this.value(depth + 1);
      v.keys.push(key);
      v.items.push(item);
      this.ws();
      const c = this.peek();
      this.pos++;
      if (c == 0x7d) return;
      if (c != 0x2c) { this.pos--; this.fail("expected ',' or '}'"); return; }
    }
  }

  array(v: JsonValue, depth: i32): void {
    v.kind = JsonKind.Array;
    this.pos++;
    this.ws();
    if (this.peek() == 0x5d) { this.pos++; return; }
    while (!this.failed) {
      this.ws();
      v.items.push(this.value(depth + 1));
      this.ws();
      const c = this.peek();
      this.pos++;
      if (c == 0x5d) return;
      if (c != 0x2c) { this.pos--; this.fail("expected ',' or ']'"); return; }
    }
  }

  // A string literal in two passes: this loop checks it and counts its code
  // units, then one allocation takes the decoded text (see strings.ts). Plain
  // text is checked four code units per step (plainRun); the loop holds no
  // error reporting: on any problem it hands over to checkedString, which
  // finds the error and its offset.
  string(): string {
    const s = this.s;
    const start = this.pos + 1; // after the opening quote
    const base = changetype<usize>(s);
    const end = base + (<usize>s.length << 1);
    let q = base + (<usize>start << 1);
    let units = 0;
    let c = 0;
    while (true) {
      q = plainRun(q, end);
      c = q < end ? <i32>load<u16>(q) : -1;
      if (c >= 0x20 && c != 0x22 && c != 0x5c) {
        q += 2;
        continue;
      }
      if (c != 0x5c) break;
      const e = q + 2 < end ? <i32>load<u16>(q, 2) : -1;
      if (e == 0x75) {
        // A loop of its own, so that other escapes are not charged for it.
        if (q + 12 > end) break;
        let bad = 0;
        for (let k: usize = 4; k < 12; k += 2) bad |= hexValue(<i32>load<u16>(q + k));
        if (bad < 0) break;
        units -= 5;
        q += 12;
      } else {
        if (unescapeLetter(e) < 0) break;
        units -= 1;
        q += 4;
      }
    }
    if (c != 0x22) return this.checkedString();
    const p = <i32>((q - base) >> 1);
    this.pos = p + 1;
    if (units == 0) return s.substring(start, p);
    return decodeValidated(s, start, p, units + (p - start));
  }

  // The slow twin of string(), for literals with an error: reports it at the offending character.
  checkedString(): string {
    this.pos++; // opening quote
    const start = this.pos;
    const n = this.s.length;
    let units = 0;
    let escaped = false;
    while (this.pos < n) {
      // Plain characters in a tight loop: the sandbox charges fuel by loop body size.
      let c = this.s.charCodeAt(this.pos);
      while (c >= 0x20 && c != 0x22 && c != 0x5c) c = this.s.charCodeAt(++this.pos);
      if (this.pos >= n) break;
      if (c == 0x22) {
        const end = this.pos;
        this.pos++;
        if (!escaped) return this.s.substring(start, end);
        return decodeValidated(this.s, start, end, units + (end - start));
      }
      if (c < 0x20) { this.fail("control character in string"); return ""; }
      // A backslash: the escape's characters count as the one code unit they stand for.
      escaped = true;
      const e = this.pos + 1 < n ? this.s.charCodeAt(this.pos + 1) : -1;
      this.pos += 2;
      if (e == 0x75) {
        // Surrogate pairs arrive as two \u escapes; UTF-16 strings keep them as two code units.
        if (this.hex4() < 0) return "";
        units -= 5;
      } else if (unescapeLetter(e) >= 0) {
        units -= 1;
      } else { this.pos -= 2; this.fail("bad escape"); return ""; }
    }
    this.fail("unterminated string");
    return "";
  }

  hex4(): i32 {
    if (this.pos + 4 > this.s.length) { this.fail("truncated \\u escape"); return -1; }
    let code = 0;
    for (let i = 0; i < 4; i++) {
      const d = hexValue(this.s.charCodeAt(this.pos + i));
      if (d < 0) { this.fail("bad \\u escape"); return -1; }
      code = (code << 4) | d;
    }
    this.pos += 4;
    return code;
  }

  number(v: JsonValue): void {
    const start = this.pos;
    if (this.peek() == 0x2d) this.pos++;
    if (this.peek() == 0x30) this.pos++;
    else if (!this.digits()) { this.fail("bad number"); return; }
    if (this.peek() == 0x2e) {
      this.pos++;
      if (!this.digits()) { this.fail("bad number"); return; }
    }
    if (this.peek() == 0x65 || this.peek() == 0x45) {
      this.pos++;
      if (this.peek() == 0x2b || this.peek() == 0x2d) this.pos++;
      if (!this.digits()) { this.fail("bad number"); return; }
    }
    v.kind = JsonKind.Number;
    v.numberValue = parseFloat(this.s.substring(start, this.pos));
  }

  digits(): bool {
    const start = this.pos;
    while (this.peek() >= 0x30 && this.peek() <= 0x39) this.pos++;
    return this.pos > start;
  }
}
