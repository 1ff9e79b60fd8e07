/**
 * Existing Extism plugins as tools, without the wasmhooks protocol: the
 * operator names exports and says how each takes its input (the tool input
 * as JSON text, or one string field as raw text); the export's output, as
 * UTF-8 text, is the tool result. Limits, grants, pins, health and failure
 * typing are the sandbox's, as for protocol plugins.
 */
import { z } from 'zod';
import { WasmhooksError } from '../errors.js';
import { lazy } from '../lazy.js';
import type { ToolOutcome, ToolRunContext } from '../tools/types.js';
import type { PluginInfo, PluginToolSpec } from '../protocol/codec.js';
import type { SandboxedModule } from '../sandbox/types.js';
import { TOOL_NAME, TOOL_NAME_RULE } from '../tools/name.js';
import { returnCodeCheck } from './return-code.js';

/** The field whose string value a `text` tool passes as its input. */
const TEXT_FIELD = 'input';

/**
 * One tool entry, wherever it is written: `loadPlugin`'s `tools` option (options.ts) and a
 * `wasmhooks.json` plugin's `tools` (config/schema.ts) are this schema, so the two accept the same
 * entries and say the same thing about a bad one. Messages say what was expected; the config loader
 * adds the path and the value it got, `loadPlugin` the path. The `.describe` texts reach the JSON
 * schema published for editors.
 */
export const extismToolSchema = lazy(() =>
  z
    .object(
      {
        name: z
          .string({ error: 'expected a tool name' })
          .regex(TOOL_NAME, { error: `expected ${TOOL_NAME_RULE}` })
          .describe('The tool\'s name, as the model sees it.'),
        export: z
          .string({ error: 'expected an export name' })
          .min(1, { error: 'expected an export name' })
          .optional()
          .describe('The export to call (default: the tool name).'),
        // No default here: an absent (or empty) one becomes "Calls the export …" in extismInfo, which knows the plugin's name.
        description: z
          .string({ error: 'expected a string' })
          .optional()
          .describe('What the model reads about the tool (default: "Calls the export <export> of <plugin>").'),
        inputSchema: z
          .record(z.string(), z.unknown(), { error: 'expected an object (a JSON Schema)' })
          .optional()
          .describe('JSON Schema of the tool input (an object schema; default: one that fits `input`).'),
        input: z
          .enum(['json', 'text'], { error: 'expected "json" or "text"' })
          .default('json')
          .describe('json: the tool input as JSON text (default); text: its string field "input", as is.'),
      },
      // Only for a value that is no object: an unknown field keeps zod's message, which names the field.
      { error: (issue) => (issue.code === 'invalid_type' ? 'expected a tool ({ "name": … })' : undefined) },
    )
    .strict(),
);

/** A plugin's tool list: names are unique within it (the model calls a tool by its name alone). */
export const extismToolsSchema = lazy(() =>
  z
    .array(extismToolSchema(), { error: 'expected an array of tools' })
    .superRefine((tools, ctx) => {
      const first = new Map<string, number>();
      for (const [i, t] of tools.entries()) {
        const j = first.get(t.name);
        if (j === undefined) first.set(t.name, i);
        else ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `expected a name unique in this plugin (tools[${j}] is also named "${t.name}")`, input: t.name });
      }
    })
    .describe('Use a plugin without the wasmhooks protocol (any Extism plugin) through these exports, as tools.'),
);

export type ExtismTool = z.input<ReturnType<typeof extismToolSchema>>;
export type ResolvedExtismTool = z.output<ReturnType<typeof extismToolSchema>>;

const TEXT_SCHEMA = {
  type: 'object',
  properties: { [TEXT_FIELD]: { type: 'string', description: 'Text passed to the plugin as is' } },
  required: [TEXT_FIELD],
};

const exportOf = (tool: ResolvedExtismTool): string => tool.export ?? tool.name;

/**
 * The `PluginInfo` of a plugin used through its exports: no hooks, the
 * configured tools, asking for nothing (its grants are what it is given).
 * Throws MISSING_EXPORT for a tool whose export the module lacks. `tools` went through
 * extismToolsSchema, which refused two with one name.
 */
export function extismInfo(
  name: string,
  tools: readonly ResolvedExtismTool[],
  sandbox: Pick<SandboxedModule, 'exports'>,
  origin: string,
): PluginInfo {
  const missing = tools.filter((t) => !sandbox.exports.includes(exportOf(t)));
  if (missing.length > 0) {
    throw new WasmhooksError(
      'MISSING_EXPORT',
      `plugin ${origin} does not export ${missing.map((t) => `"${exportOf(t)}" (tool ${t.name})`).join(', ')}; its function exports are: ${sandbox.exports.join(', ') || 'none'}`,
    );
  }
  const specs: PluginToolSpec[] = tools.map((t) => ({
    name: t.name,
    description: t.description || `Calls the export "${exportOf(t)}" of ${name}`,
    inputSchema: t.inputSchema ?? (t.input === 'text' ? TEXT_SCHEMA : { type: 'object' }),
  }));
  return {
    name,
    version: '',
    description: '',
    protocolVersion: 0,
    hooks: [],
    tools: specs,
    grants: { networkHosts: [], filePaths: [], configKeys: [] },
  };
}

/** A plugin name from its origin: the file name without `.wasm`, made a valid plugin name (plugins/identity.ts). */
export function nameFromOrigin(origin: string): string {
  if (origin === '<bytes>') return 'extism-plugin';
  // A URL's file is its path's last part: its query and fragment are not the plugin's name (`x.wasm?v=2` is x).
  const path = URL.canParse(origin) ? decodedPath(new URL(origin).pathname) : origin;
  const base = path.split(/[\\/]/).filter(Boolean).pop() ?? '';
  const slug = base.replace(/\.wasm$/i, '').toLowerCase().replace(/[^a-z0-9_.-]/g, '-').replace(/^[^a-z0-9]+/, '');
  return slug.slice(0, 64) || 'extism-plugin';
}

/** A URL's path with its escapes read (`Shell%20Guard` is `Shell Guard`); as it is when they are not UTF-8. */
function decodedPath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Calls one export as a tool. Never throws: a failure is an error result naming its code. */
export async function callExtismTool(
  sandbox: SandboxedModule,
  plugin: string,
  tool: ResolvedExtismTool,
  input: Record<string, unknown>,
  ctx: Pick<ToolRunContext, 'signal' | 'onProgress'>,
  onLog?: (level: string, message: string) => void,
): Promise<ToolOutcome> {
  const failed = (code: string, message: string): ToolOutcome => ({
    content: `tool ${tool.name} (plugin ${plugin}) failed: ${code}: ${message}`,
    isError: true,
  });
  let payload: string;
  if (tool.input === 'text') {
    const value = input[TEXT_FIELD];
    if (typeof value !== 'string') return failed('BAD_INPUT', `expected a string "${TEXT_FIELD}" field`);
    payload = value;
  } else {
    payload = JSON.stringify(input);
  }
  const outcome = await sandbox.call(exportOf(tool), new TextEncoder().encode(payload), {
    signal: ctx.signal,
    onProgress: ctx.onProgress,
    ...(onLog ? { onLog } : {}),
    // Extism's ABI: a non-zero return code is a failed call, as Extism's Rust host reads it.
    ...returnCodeCheck(plugin, exportOf(tool)),
  });
  if (!outcome.ok) return failed(outcome.failure.code, outcome.failure.message);
  try {
    return { content: decoder.decode(outcome.output), isError: false };
  } catch {
    return failed('BAD_OUTPUT', `the export "${exportOf(tool)}" returned ${outcome.output.byteLength} bytes that are not UTF-8 text`);
  }
}
