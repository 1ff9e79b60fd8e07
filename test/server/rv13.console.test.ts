// rv13, red12's terminal class in the browser console: the page showed a pending tool call's input as
// JSON.stringify wrote it, which leaves bidi controls and C1 as they are, so a model or an injected tool
// output could make the command the operator approves read as another ("\u202e" reverses what follows).
// Every text the page shows goes through one helper (el); run the page's script against a stub DOM and
// read what it would display. Fails on the old code (the override reached textContent).
import { describe, expect, it } from 'vitest';
import { consoleScript } from '../../host/server/console-script.js';

const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** The page script's `el`, run against stubs for the few globals it touches at load. */
function pageEl(): (tag: string, cls: string, text: string) => { textContent: string } {
  const node = () => ({ value: '', textContent: '', className: '', dataset: {}, style: {}, append() {}, replaceChildren() {}, addEventListener() {} });
  const document = { getElementById: () => node(), createElement: () => node() };
  const sessionStorage = { getItem: () => '', setItem() {} };
  const fetch = () => Promise.reject(new Error('offline'));
  const run = new Function('document', 'sessionStorage', 'fetch', 'EventSource', `${consoleScript}\nreturn el;`);
  return run(document, sessionStorage, fetch, class {}) as ReturnType<typeof pageEl>;
}

describe('rv13: the browser console shows control and bidi characters as escapes', () => {
  it('a tool input with a bidi override and C1 controls reads as escapes; newlines and tabs stay', () => {
    const el = pageEl();
    const input = JSON.stringify({ command: 'echo ok \u202e; ~ fr- mr\u009b2J\u0085' }, null, 1);
    const shown = el('pre', '', input).textContent;
    expect(shown).not.toMatch(UNSAFE);
    expect(shown).toContain('\\u202e');
    expect(shown).toContain('\\u009b');
    expect(shown).toContain('\n');
    expect(el('div', '', 'a\tb').textContent).toBe('a\tb');
    expect(el('div', '', 'plain text').textContent).toBe('plain text');
  });
});
