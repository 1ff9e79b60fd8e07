// One table of Extism tool lists (an existing Extism plugin's exports offered as tools) through the two places
// a person writes them: a wasmhooks.json plugin's `tools` (parseConfig) and loadPlugin's `tools` option. Both
// are host/plugins/extism-tools.ts's schema, so each list gets one verdict from both, and a refusal names the
// same field with the same words. Shared by test/plugins/extism-tool-schema.test.ts (host/) and
// test/xrt/anylang.xrt.ts (dist/ on Node, Deno and Bun), so only type imports from host/.
import type { HostFunction, loadPlugin as LoadPlugin, parseConfig as ParseConfig } from '../../host/index.js';

export interface ExtismToolApi {
  parseConfig: typeof ParseConfig;
  loadPlugin: typeof LoadPlugin;
  /** test/fixtures/extism-vowels: exports count_vowels, repeat, spin and ask_host; imports the host function lookup. */
  vowels: Uint8Array;
}

interface Row {
  title: string;
  tools: unknown;
  /** Refused: where (below the plugin entry, or the options) and what both messages say. */
  refused?: { at: string; says: RegExp };
}

export const EXTISM_TOOL_ROWS: readonly Row[] = [
  { title: 'a name alone (the export of that name, JSON input)', tools: [{ name: 'count_vowels' }] },
  {
    title: 'every field',
    tools: [{ name: 'vowels', export: 'count_vowels', description: 'Counts vowels', inputSchema: { type: 'object', properties: { input: { type: 'string' } } }, input: 'text' }],
  },
  { title: 'an empty description, input json said', tools: [{ name: 'repeat', description: '', input: 'json' }] },
  { title: 'two tools on one export', tools: [{ name: 'r1', export: 'repeat' }, { name: 'r2', export: 'repeat' }] },
  { title: 'a name with a space', tools: [{ name: 'count vowels', export: 'count_vowels' }], refused: { at: 'tools[0].name', says: /expected 1-64 letters, digits, _ or -/ } },
  { title: 'a look-alike name (Cyrillic а)', tools: [{ name: 'cаunt', export: 'count_vowels' }], refused: { at: 'tools[0].name', says: /expected 1-64 letters/ } },
  { title: 'a 65-character name', tools: [{ name: 'x'.repeat(65), export: 'count_vowels' }], refused: { at: 'tools[0].name', says: /expected 1-64 letters/ } },
  { title: 'no name', tools: [{ export: 'count_vowels' }], refused: { at: 'tools[0].name', says: /expected a tool name/ } },
  { title: 'a number as name', tools: [{ name: 7 }], refused: { at: 'tools[0].name', says: /expected a tool name/ } },
  { title: 'an empty export', tools: [{ name: 'count_vowels', export: '' }], refused: { at: 'tools[0].export', says: /expected an export name/ } },
  { title: 'a description that is no string', tools: [{ name: 'count_vowels', description: 3 }], refused: { at: 'tools[0].description', says: /expected a string/ } },
  { title: 'an inputSchema that is a string', tools: [{ name: 'count_vowels', inputSchema: 'object' }], refused: { at: 'tools[0].inputSchema', says: /expected an object \(a JSON Schema\)/ } },
  { title: 'an inputSchema that is an array', tools: [{ name: 'count_vowels', inputSchema: [] }], refused: { at: 'tools[0].inputSchema', says: /expected an object \(a JSON Schema\)/ } },
  { title: 'an input mode that does not exist', tools: [{ name: 'count_vowels', input: 'raw' }], refused: { at: 'tools[0].input', says: /expected "json" or "text"/ } },
  { title: 'an unknown field', tools: [{ name: 'count_vowels', exports: 'count_vowels' }], refused: { at: 'tools[0]', says: /\.exports: unknown field|Unrecognized key: "exports"/ } },
  { title: 'a tool that is a bare string', tools: ['count_vowels'], refused: { at: 'tools[0]', says: /expected a tool \(\{ "name": … \}\)/ } },
  {
    title: 'two tools with one name',
    tools: [{ name: 'same', export: 'count_vowels' }, { name: 'same', export: 'repeat' }],
    refused: { at: 'tools[1].name', says: /expected a name unique in this plugin \(tools\[0\] is also named "same"\)/ },
  },
  { title: 'tools that are no array', tools: { name: 'count_vowels' }, refused: { at: 'tools', says: /expected an array of tools/ } },
];

const lookup: HostFunction = { params: ['i64'], results: ['i64'], fn: (c) => c.store('') };
const failure = (error: unknown) => ({ code: String((error as { code?: unknown }).code), message: String((error as Error).message) });

/** What is wrong, row by row (empty when both entry points agree and every refusal names its field). */
export async function extismToolVerdicts(api: ExtismToolApi): Promise<string[]> {
  const problems: string[] = [];
  const grants = { hostFunctions: ['lookup'] };
  const load = (tools: unknown) =>
    api.loadPlugin({ bytes: api.vowels }, { tools: tools as never, grants, hostFunctions: { lookup } }).then(
      async (plugin) => {
        const specs = plugin.tools().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
        await plugin.close();
        return { ok: true as const, specs };
      },
      (error: unknown) => ({ ok: false as const, ...failure(error) }),
    );
  for (const row of EXTISM_TOOL_ROWS) {
    const raw = { plugins: [{ path: 'vowels.wasm', grants, tools: row.tools }] };
    let config: { ok: true; tools: unknown } | { ok: false; code: string; message: string };
    try {
      config = { ok: true, tools: api.parseConfig(raw, { file: 'wasmhooks.json', dir: '/' }).plugins?.[0]?.tools };
    } catch (error) {
      config = { ok: false, ...failure(error) };
    }
    const loaded = await load(row.tools);
    const name = JSON.stringify(row.title);
    if (config.ok !== loaded.ok || config.ok !== !row.refused) {
      problems.push(`${name}: expected ${row.refused ? 'refused' : 'accepted'}; config ${config.ok ? 'accepted' : `refused (${config.message})`}, loadPlugin ${loaded.ok ? 'accepted' : `refused (${loaded.message})`}`);
      continue;
    }
    if (row.refused && !config.ok && !loaded.ok) {
      const { at, says } = row.refused;
      // parseConfig: `wasmhooks.json: plugins[0].tools[0].name: expected …, got …`; an unknown field is named after the path.
      if (config.code !== 'INVALID_CONFIG' || !config.message.includes(`wasmhooks.json: plugins[0].${at}`) || !says.test(config.message)) {
        problems.push(`${name}: config said ${config.code}: ${config.message}`);
      }
      // loadPlugin: the config file's wording after the options' path (`… plugin <bytes>: tools[0].name: expected …`).
      if (loaded.code !== 'INVALID_OPTIONS' || !loaded.message.includes(`plugin <bytes>: ${at}`) || !says.test(loaded.message)) {
        problems.push(`${name}: loadPlugin said ${loaded.code}: ${loaded.message}`);
      }
    } else if (config.ok && loaded.ok) {
      // What the config parse gives is load options that make the same tools.
      const again = await load(config.tools);
      if (JSON.stringify(again) !== JSON.stringify(loaded)) problems.push(`${name}: the parsed config's tools load as ${JSON.stringify(again)}, the written ones as ${JSON.stringify(loaded)}`);
    }
  }
  return problems;
}
