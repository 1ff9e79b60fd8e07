/**
 * JS tools: a name, a description, a zod object schema and an async function.
 * The input is validated before the call; a bad input goes back to the model
 * as an error result (and fires PostToolUseFailure), the function never runs.
 */
import { z } from 'zod';
import { WasmhooksError, messageOf } from '../errors.js';
import { nestsDeeper, tooDeep } from '../json.js';
import { TOOL_NAME } from './name.js';
import { fromUntrustedJSONSchema, withinNodes, type UntrustedSchema } from './json-schema.js';
import type { ToolHandler, ToolInputCheck, ToolRunContext } from './types.js';

/** What a JS tool function may return: text, or text with an error flag. */
export type JsToolReturn = string | { content: string; isError?: boolean };

export interface JsToolContext {
  signal: AbortSignal;
  toolUseId: string;
  cwd: string;
  sessionId: string;
  /** Report progress (text); shows up as a tool.progress event. */
  onProgress(progress: string): void;
}

export interface JsToolOptions {
  /**
   * The tool only reads (no side effects, no shared state): consecutive calls
   * of such tools in one batch run at the same time.
   */
  readOnly?: boolean;
}

/**
 * @example
 * const read = tool('Read', 'Read a file', z.object({ file_path: z.string() }),
 *   async ({ file_path }) => await fs.readFile(file_path, 'utf8'), { readOnly: true });
 */
export function tool<S extends z.ZodObject>(
  name: string,
  description: string,
  schema: S,
  run: (input: z.infer<S>, ctx: JsToolContext) => Promise<JsToolReturn> | JsToolReturn,
  options: JsToolOptions = {},
): ToolHandler {
  if (!TOOL_NAME.test(name)) {
    throw new WasmhooksError('INVALID_OPTIONS', `tool name ${JSON.stringify(name)} must match ${TOOL_NAME.source}`);
  }
  if (!(schema instanceof z.ZodObject)) {
    throw new WasmhooksError('INVALID_OPTIONS', `tool ${name}: ${schemaProblem(schema)}`);
  }
  const inputSchema = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete inputSchema.$schema;
  return {
    name,
    description,
    inputSchema,
    kind: 'js',
    ...(options.readOnly ? { concurrencySafe: true } : {}),
    validate: (input) => check(schema, input),
    async run(input, ctx: ToolRunContext) {
      try {
        const out = await run(input as z.infer<S>, {
          signal: ctx.signal,
          toolUseId: ctx.toolUseId,
          cwd: ctx.context.cwd,
          sessionId: ctx.context.session_id,
          onProgress: ctx.onProgress,
        });
        if (typeof out === 'string') return { content: out, isError: false };
        return { content: String(out.content), isError: out.isError === true };
      } catch (e) {
        return { content: `tool ${name} failed: ${messageOf(e)}`, isError: true };
      }
    },
  };
}

function check(schema: z.ZodType, input: unknown): ToolInputCheck {
  const r = schema.safeParse(input);
  if (r.success) return { ok: true, value: r.data as Record<string, unknown> };
  return { ok: false, message: z.prettifyError(r.error) };
}

/**
 * A checker for a JSON-schema-only tool (WASM, MCP). A schema zod cannot read is not checked beyond
 * "an object"; its patterns run on RE2 (json-schema.ts: the schema is a stranger's, the input the model's).
 * A schema or an input nested deeper than MAX_JSON_DEPTH is refused, not walked: checking either
 * recursed until the stack ran out, and a schema that failed so was taken as one zod cannot read
 * (every input passed). Where a stranger's schema enters (a plugin's `describe`, an MCP server's
 * listing, the tool registry) it is refused first, with its source named.
 */
export function jsonSchemaChecker(schema: Record<string, unknown>): (input: unknown) => ToolInputCheck {
  if (nestsDeeper(schema)) {
    const message = tooDeep("the tool's schema");
    return () => ({ ok: false, message });
  }
  let compiled: UntrustedSchema | undefined;
  try {
    compiled = fromUntrustedJSONSchema(schema);
  } catch {
    compiled = undefined;
  }
  return (input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return { ok: false, message: 'the tool input must be a JSON object' };
    }
    if (nestsDeeper(input)) return { ok: false, message: tooDeep('the input') };
    // An input too large for the schema's size to check in bounded time is not checked (json-schema.ts).
    if (!compiled || !withinNodes(input, compiled.maxInputNodes)) return { ok: true, value: input as Record<string, unknown> };
    try {
      const checked = check(compiled.schema, input);
      // The tool gets the input as judged, not zod's parse of it: a stranger's schema with a `default` (or keys
      // its conversion strips) handed the tool an input no guard, approval or PostToolUse had seen. Filling in
      // defaults is the tool's own business (an MCP server's, a plugin's), on its side of the call.
      return checked.ok ? { ok: true, value: input as Record<string, unknown> } : checked;
    } catch (error) {
      // A stranger's schema that zod cannot finish with (a stack overflow on a deep input): refused, not thrown into the loop.
      return { ok: false, message: `the input could not be checked against the tool's schema: ${messageOf(error)}` };
    }
  };
}

/** Why a tool schema is not one we can use, in words a user can act on. */
function schemaProblem(schema: unknown): string {
  const o = schema as { _def?: unknown; _zod?: unknown; constructor?: { name?: string } } | null;
  // zod 3 schemas carry `_def` but not zod 4's `_zod`; `instanceof` fails across the two.
  if (o && typeof o === 'object' && '_def' in o && !('_zod' in o)) {
    return 'the schema was made with zod 3; wasmhooks needs zod 4 (npm install zod@^4, then import { z } from "zod")';
  }
  if (o && typeof o === 'object' && '_zod' in o) {
    return `the schema must be a z.object(...), got a ${o.constructor?.name ?? 'different zod schema'} (or a z.object from another copy of zod: keep one zod 4 in node_modules)`;
  }
  return 'the schema must be a z.object(...)';
}
