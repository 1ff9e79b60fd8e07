// The guest SDK's config helpers and its linear-time JSON strings, through the
// sdk-features test plugin: config(key)/configOr(key, fallback) as an operator
// grants them, and jsonString/parseJson on a long escape-heavy string inside
// the host's default limits (the old `+=` builder needed 264 M fuel for it).
import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import protobuf from 'protobufjs';
import { createSandbox, DEFAULT_LIMITS } from '../../host/index.js';
import { loadForTest, type TestPlugin } from '../../sdk-guest/testkit/index.js';
import { builtWasm } from './built.js';

const wasmPath = builtWasm('test/fixtures/sdk-features/build/sdk-features.wasm');
const opened: TestPlugin[] = [];
afterAll(async () => { for (const p of opened) await p.close(); });
async function load(config?: Record<string, string>): Promise<TestPlugin> {
  const p = await loadForTest(wasmPath, config ? { config } : {});
  opened.push(p);
  return p;
}

describe('config(key) and configOr(key, fallback)', () => {
  it.each([
    [undefined, '(null) fallback'],
    [{ token: 'abc' }, '[abc] abc'],
    [{ token: ' padded ' }, '[ padded ]  padded '],
    [{ token: '   ' }, '[   ] fallback'],
    [{ token: '' }, '(null) fallback'],
    [{ other: 'x' }, '(null) fallback'],
  ])('with config %j reads %j', async (config, expected) => {
    const p = await load(config);
    expect(await p.tool('config', {})).toEqual({ content: expected, isError: false });
  });
});

describe('jsonString and parseJson on long strings', () => {
  const root = protobuf.loadSync(new URL('../../proto/wasmhooks/v1/hooks.proto', import.meta.url).pathname);
  const ToolRequest = root.lookupType('wasmhooks.v1.ToolRequest');
  const ToolResponse = root.lookupType('wasmhooks.v1.ToolResponse');
  const unit = 'say "hi" C:\\path\\x\n\ttab\r\u0000\u0001\u001f\u007f\b\f é 🐢 ✓ \u2028 plain / text ';
  const text = unit.repeat(Math.ceil(50_000 / unit.length)).slice(0, 49_998) + 'ok';

  it('escape a 50 KB string with quotes, newlines, control characters and unicode exactly as JSON.stringify, within the default limits', async () => {
    expect(text.length).toBe(50_000);
    const sandbox = await createSandbox(await readFile(wasmPath));
    try {
      const input = ToolRequest.encode(ToolRequest.fromObject({ name: 'escape', inputJson: JSON.stringify({ text }) })).finish();
      // What this checks is fuel (deterministic); the wall-clock deadline can pass on a loaded machine, so a TIMEOUT is tried again.
      let outcome = await sandbox.call('tool', input);
      for (let i = 0; i < 2 && !outcome.ok && outcome.failure.code === 'TIMEOUT'; i++) outcome = await sandbox.call('tool', input);
      if (!outcome.ok) throw new Error(`${outcome.failure.code}: ${outcome.failure.message}`);
      const response = ToolResponse.toObject(ToolResponse.decode(outcome.output)) as { content: string };
      expect(response.content).toBe(JSON.stringify(text));
      expect(outcome.fuelUsed).toBeLessThan(DEFAULT_LIMITS.fuel);
    } finally {
      await sandbox.close();
    }
  });

  it('round-trips strings made only of escapes or non-ASCII characters, short and empty ones', async () => {
    const p = await load();
    const edges = ['', '"', '\\', '\u0000', 'é', '🐢', '€', 'aé', 'éa', 'x🐢', '🐢x', '\u07ff\u0800\uffff\u{10000}\u{10ffff}'];
    for (const s of [...edges, '"'.repeat(5000), '\n\\"\u001b'.repeat(3000), 'é🐢'.repeat(2000)]) {
      expect((await p.tool('escape', { text: s })).content).toBe(JSON.stringify(s));
    }
  });
});

describe('UTF-8 and JSON strings taken eight bytes at a time', () => {
  // The decoder, the encoder and the JSON scanner step over ASCII a 64-bit word at a time:
  // a non-ASCII character, an escape or a quote at every offset within and across words.
  const specials = ['é', '🐢', '€', '\u07ff', '\n', '"', '\\', '\u0000', '\u001f', '\u2028', '\u{10ffff}'];
  const cases: string[] = [];
  for (const c of specials) for (let at = 0; at <= 17; at++) cases.push('abcdefghijklmnopq'.slice(0, at) + c + 'rstuvwxyz0123456789'.slice(0, 17 - at));

  it('round-trips ASCII runs with a special character at offsets 0–17', async () => {
    const p = await loadForTest(wasmPath);
    opened.push(p);
    const all = cases.join('|');
    // One call carries every case: each survives host UTF-8 → guest UTF-16 → JSON → UTF-8 unchanged.
    expect((await p.tool('escape', { text: all })).content).toBe(JSON.stringify(all));
    for (const s of cases.slice(0, 40)) expect((await p.tool('escape', { text: s })).content).toBe(JSON.stringify(s));
  });
});

describe('malformed JSON strings around the four-code-unit steps', () => {
  const root = protobuf.loadSync(new URL('../../proto/wasmhooks/v1/hooks.proto', import.meta.url).pathname);
  const ToolRequest = root.lookupType('wasmhooks.v1.ToolRequest');
  // Each bad tail after a plain prefix of 0–17 chars, so the fault lands at every offset within and across the scanner's steps.
  const tails: [string, string][] = [
    ['\\u12"}', 'bad \\u escape'],
    ['\\u12', 'truncated \\u escape'],
    ['\\x"}', 'bad escape'],
    ['\u0001"}', 'control character in string'],
    ['', 'unterminated string'],
    ['é🐢', 'unterminated string'],
  ];

  it('report the error and its offset, never a wrong value', async () => {
    const sandbox = await createSandbox(await readFile(wasmPath));
    try {
      for (const [tail, message] of tails) {
        for (let at = 0; at <= 17; at++) {
          const text = `{"text":"${'abcdefghijklmnopq'.slice(0, at)}${tail}`;
          const input = ToolRequest.encode(ToolRequest.fromObject({ name: 'escape', inputJson: text })).finish();
          const outcome = await sandbox.call('tool', input);
          expect(outcome.ok, text).toBe(false);
          if (outcome.ok) continue;
          expect(outcome.failure.message, text).toContain(`input_json of tool escape is not valid JSON: ${message} at offset `);
          const offset = Number(/at offset (\d+)/.exec(outcome.failure.message)![1]);
          expect(offset, text).toBeGreaterThanOrEqual(9 + at);
          expect(offset, text).toBeLessThanOrEqual(text.length);
        }
      }
    } finally {
      await sandbox.close();
    }
  });
});
