// A recursive-descent evaluator for arithmetic: + - * / % ^, parentheses,
// unary minus and plus, decimals and exponents (1.5e3). `^` binds tighter than
// unary minus and is right-associative: -2^2 = -4, 2^3^2 = 512.
// Errors carry a 1-based position into the expression.

const MAX_DEPTH: i32 = 200;

export class Evaluation {
  value: f64 = 0;
  /** Empty on success. */
  error: string = "";
  /** Tokens read, for progress reporting. */
  tokens: i32 = 0;
}

class Parser {
  pos: i32 = 0;
  depth: i32 = 0;
  error: string = "";
  tokens: i32 = 0;
  constructor(public s: string) {}

  fail(message: string, at: i32): f64 {
    if (this.error.length == 0) this.error = message + " at position " + (at + 1).toString();
    return 0;
  }

  skipSpace(): void {
    while (this.pos < this.s.length) {
      const c = this.s.charCodeAt(this.pos);
      if (c != 0x20 && c != 0x09 && c != 0x0a && c != 0x0d) break;
      this.pos++;
    }
  }

  /** The next non-space char code, or -1 at the end. */
  peek(): i32 {
    this.skipSpace();
    return this.pos < this.s.length ? this.s.charCodeAt(this.pos) : -1;
  }

  expression(): f64 {
    let left = this.term();
    while (this.error.length == 0) {
      const c = this.peek();
      if (c != 0x2b && c != 0x2d) break;
      this.pos++;
      this.tokens++;
      const right = this.term();
      left = c == 0x2b ? left + right : left - right;
    }
    return left;
  }

  term(): f64 {
    let left = this.unary();
    while (this.error.length == 0) {
      const c = this.peek();
      if (c != 0x2a && c != 0x2f && c != 0x25) break;
      const at = this.pos;
      this.pos++;
      this.tokens++;
      const right = this.unary();
      if (this.error.length > 0) break;
      if ((c == 0x2f || c == 0x25) && right == 0) return this.fail(c == 0x2f ? "division by zero" : "modulo by zero", at);
      left = c == 0x2a ? left * right : c == 0x2f ? left / right : left % right;
    }
    return left;
  }

  unary(): f64 {
    const c = this.peek();
    if (c == 0x2d || c == 0x2b) {
      if (++this.depth > MAX_DEPTH) return this.fail("expression nested too deeply", this.pos);
      this.pos++;
      this.tokens++;
      const v = this.unary();
      this.depth--;
      return c == 0x2d ? -v : v;
    }
    return this.power();
  }

  power(): f64 {
    const base = this.primary();
    if (this.error.length > 0 || this.peek() != 0x5e) return base;
    this.pos++;
    this.tokens++;
    if (++this.depth > MAX_DEPTH) return this.fail("expression nested too deeply", this.pos);
    const exponent = this.unary();
    this.depth--;
    return Math.pow(base, exponent);
  }

  primary(): f64 {
    const c = this.peek();
    if (c == 0x28) {
      const open = this.pos;
      if (++this.depth > MAX_DEPTH) return this.fail("expression nested too deeply", open);
      this.pos++;
      this.tokens++;
      const v = this.expression();
      if (this.error.length > 0) return 0;
      if (this.peek() != 0x29) return this.fail("missing ) for the ( at position " + (open + 1).toString() + ",", this.pos);
      this.pos++;
      this.tokens++;
      this.depth--;
      return v;
    }
    if ((c >= 0x30 && c <= 0x39) || c == 0x2e) return this.number();
    if (c < 0) return this.fail("syntax error: expected a number or ( but the expression ended", this.pos);
    return this.fail("syntax error: unexpected \"" + String.fromCharCode(c) + "\"", this.pos);
  }

  number(): f64 {
    const start = this.pos;
    let digits = this.digits();
    if (this.pos < this.s.length && this.s.charCodeAt(this.pos) == 0x2e) {
      this.pos++;
      digits += this.digits();
    }
    if (digits == 0) return this.fail("syntax error: a lone \".\" is not a number", start);
    if (this.pos < this.s.length && (this.s.charCodeAt(this.pos) | 0x20) == 0x65) {
      const e = this.pos;
      this.pos++;
      if (this.pos < this.s.length && (this.s.charCodeAt(this.pos) == 0x2b || this.s.charCodeAt(this.pos) == 0x2d)) this.pos++;
      if (this.digits() == 0) return this.fail("syntax error: exponent without digits", e);
    }
    this.tokens++;
    return decimal(this.s.substring(start, this.pos));
  }

  digits(): i32 {
    const start = this.pos;
    while (this.pos < this.s.length) {
      const c = this.s.charCodeAt(this.pos);
      if (c < 0x30 || c > 0x39) break;
      this.pos++;
    }
    return this.pos - start;
  }
}

/** Evaluates `expression`; the error names what is wrong and where. */
export function evaluate(expression: string): Evaluation {
  const out = new Evaluation();
  const p = new Parser(expression);
  if (p.peek() < 0) {
    out.error = "syntax error: the expression is empty";
    return out;
  }
  const v = p.expression();
  if (p.error.length == 0 && p.peek() >= 0) {
    const c = p.s.charCodeAt(p.pos);
    p.fail(c == 0x29 ? "syntax error: unmatched )" : "syntax error: unexpected \"" + String.fromCharCode(c) + "\"", p.pos);
  }
  out.tokens = p.tokens;
  if (p.error.length > 0) {
    out.error = p.error;
  } else if (!isFinite(v)) {
    out.error = "the result is not a finite number (" + (isNaN(v) ? "NaN" : v > 0 ? "overflow to +Infinity" : "overflow to -Infinity") + ")";
  } else {
    out.value = v;
  }
  return out;
}

const EXACT_POWERS: f64[] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/**
 * `0.1` → the nearest double. AssemblyScript's parseFloat is not correctly
 * rounded (0.1 + 0.2 came out as 0.30000000000000007), so the common case is
 * done exactly: up to 15 significant digits and a power of ten up to 22 are
 * both exact doubles, and one IEEE division or multiplication of exact values
 * rounds correctly. Longer numbers fall back to parseFloat.
 */
function decimal(text: string): f64 {
  let mantissa: i64 = 0;
  let digits = 0;
  let scale = 0;
  let seenDot = false;
  let i = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c == 0x2e) { seenDot = true; continue; }
    if (c < 0x30 || c > 0x39) break;
    if (mantissa == 0 && c == 0x30) { if (seenDot) scale--; continue; }
    if (++digits > 15) return parseFloat(text);
    mantissa = mantissa * 10 + (c - 0x30);
    if (seenDot) scale--;
  }
  if (i < text.length) {
    // An exponent: e, optional sign, digits (checked by the parser).
    let sign = 1;
    let exp = 0;
    i++;
    if (text.charCodeAt(i) == 0x2d) { sign = -1; i++; } else if (text.charCodeAt(i) == 0x2b) i++;
    for (; i < text.length; i++) {
      exp = exp * 10 + (text.charCodeAt(i) - 0x30);
      if (exp > 400) return parseFloat(text);
    }
    scale += sign * exp;
  }
  const m = <f64>mantissa;
  if (mantissa == 0) return 0;
  if (scale >= 0 && scale <= 22) return m * EXACT_POWERS[scale];
  if (scale < 0 && scale >= -22) return m / EXACT_POWERS[-scale];
  return parseFloat(text);
}

const SIGNIFICANT = 15;

/**
 * `14`, `-0.5`, `0.3`, `1152921504606846976`. Integers print in full;
 * fractions to 15 significant digits, like a desk calculator: 0.1 + 0.2 shows
 * as 0.3, and AssemblyScript's own float printing (which shows
 * 0.30000000000000004 as 0.30000000000000007) is only used outside 1e-8..1e15.
 */
export function formatNumber(v: f64): string {
  if (v == 0) return "0";
  if (Math.floor(v) == v && Math.abs(v) < 9.2e18) return (<i64>v).toString();
  const a = Math.abs(v);
  let e = <i32>Math.floor(Math.log10(a));
  if (EXACT_POWERS[0] * Math.pow(10, e) > a) e--;
  let k = SIGNIFICANT - 1 - e;
  if (k < 0 || k > 22) {
    const s = v.toString();
    return s.endsWith(".0") ? s.substring(0, s.length - 2) : s;
  }
  let m = <i64>Math.round(a * EXACT_POWERS[k]);
  if (m >= 1_000_000_000_000_000) { m = (m + 5) / 10; k--; }
  while (k > 0 && m % 10 == 0) { m /= 10; k--; }
  let digits = m.toString();
  const sign = v < 0 ? "-" : "";
  if (k <= 0) return sign + digits;
  while (digits.length <= k) digits = "0" + digits;
  return sign + digits.substring(0, digits.length - k) + "." + digits.substring(digits.length - k);
}
