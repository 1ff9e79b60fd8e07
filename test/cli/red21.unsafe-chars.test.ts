// red21 item 3: the printer (CLI, replay, the console page) escaped C0/C1 and the bidi controls, but not
// the invisible characters that make two strings look equal (zero-width space/joiners, U+FEFF, U+180E,
// the tag characters), the line/paragraph separators (U+2028/9) or lone surrogates. One set now
// (host/unsafe-chars.ts) for the printer, the console page and the plugin identity checks. Old code:
// every case below but the bidi one came out as it went in.
import { describe, expect, it } from 'vitest';
import { printable, printableDeep } from '../../host/cli/printable.js';
import { consoleScript } from '../../host/server/console-script.js';
import { escapeUnsafeChars, firstUnsafeChar, hasUnsafeChars } from '../../host/unsafe-chars.js';

const CASES: [string, string][] = [
  ['zero-width space', '\u200b'],
  ['zero-width non-joiner', '\u200c'],
  ['zero-width joiner', '\u200d'],
  ['LRM', '\u200e'],
  ['RLO (already)', '\u202e'],
  ['line separator', '\u2028'],
  ['paragraph separator', '\u2029'],
  ['word joiner', '\u2060'],
  ['BOM', '\ufeff'],
  ['Mongolian vowel separator', '\u180e'],
  ['interlinear annotation', '\ufff9'],
  ['interlinear terminator', '\ufffb'],
  ['lone high surrogate', '\ud800'],
  ['lone low surrogate', '\udc00'],
];

/** The console page's `el`, run against stubs (as test/server/rv13.console.test.ts does). */
function pageShown(text: string): string {
  const node = () => ({ value: '', textContent: '', className: '', dataset: {}, style: {}, append() {}, replaceChildren() {}, addEventListener() {} });
  const document = { getElementById: () => node(), createElement: () => node() };
  const run = new Function('document', 'sessionStorage', 'fetch', 'EventSource', `${consoleScript}\nreturn el;`);
  const el = run(document, { getItem: () => '', setItem() {} }, () => Promise.reject(new Error('offline')), class {}) as (t: string, c: string, x: string) => { textContent: string };
  return el('div', '', text).textContent;
}

describe('red21: one unsafe-character set for the printer, the console and identity checks', () => {
  it.each(CASES)('%s is escaped by printable and by the console page', (_, c) => {
    const text = `pay${c}pal`;
    const code = c.charCodeAt(0).toString(16).padStart(4, '0');
    expect(printable(text)).toBe(`pay\\u${code}pal`);
    expect(pageShown(text)).toBe(`pay\\u${code}pal`);
    expect(hasUnsafeChars(text)).toBe(true);
  });

  it('a tag character (invisible text a model reads) is escaped whole; a real surrogate pair (emoji) stays', () => {
    expect(printable('ok\u{e0041}\u{e0042}')).toBe('ok\\u{e0041}\\u{e0042}');
    expect(pageShown('ok\u{e0041}')).toBe('ok\\u{e0041}');
    expect(printable('ok 🎉 ok')).toBe('ok 🎉 ok');
    expect(printable('naïve — “quoted” 日本')).toBe('naïve — “quoted” 日本');
    expect(printable('a\tb\nc\r\nd')).toBe('a\tb\nc\nd');
    expect(firstUnsafeChar('ab\u200bc\u202e')).toBe('\\u200b');
    expect(firstUnsafeChar('abc')).toBeUndefined();
    expect(escapeUnsafeChars('x')).toBe('x');
  });

  it('printableDeep (the replay/inspect printers) reaches nested strings', () => {
    expect(printableDeep({ a: ['x\u2028y'] })).toEqual({ a: ['x\\u2028y'] });
  });
});
