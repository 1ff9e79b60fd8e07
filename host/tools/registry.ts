/** The host's tools by name. Names are unique: a second tool with a taken name is refused. */
import { WasmhooksError } from '../errors.js';
import { nestsDeeper, tooDeep } from '../json.js';
import type { ToolDefinition } from '../models/types.js';
import type { ToolHandler, ToolInputCheck } from './types.js';
import { jsonSchemaChecker } from './define.js';
import { reservedToolError, reservedToolName } from './reserved.js';

export interface RegisteredTool {
  handler: ToolHandler;
  validate: (input: unknown) => ToolInputCheck;
}

/**
 * @example
 * host.tools.add(tool('Echo', 'Echo back', z.object({ text: z.string() }), ({ text }) => text));
 */
export class ToolRegistry {
  private byName = new Map<string, RegisteredTool>();
  private defs: ToolDefinition[] | undefined;
  /** Names reserved besides the built-ins (tools/reserved.ts), lower-cased. */
  private reservedNames = new Map<string, string>();

  /**
   * Keeps `name` (in any letter case) from plugin and MCP server tools, as the built-in names are;
   * the app's own tools (kind `js`) may still take it: they are the host's to name.
   */
  reserve(name: string): void {
    this.reservedNames.set(name.toLowerCase(), name);
  }

  /**
   * Keeps a frozen copy of the tool's fields, each read once, with its
   * methods bound to it: the name it is registered under, the schema the
   * model is told and the one its input is checked against are one reading
   * (a getter cannot answer one thing here and another later).
   */
  add(handler: ToolHandler): void {
    if (typeof handler !== 'object' || handler === null) throw new WasmhooksError('INVALID_OPTIONS', 'a tool needs a name and a run function (use tool(...) to define one)');
    const { name, description, inputSchema, kind, plugin, concurrencySafe, validate: ownValidate, run } = handler;
    if (typeof run !== 'function' || typeof name !== 'string') {
      throw new WasmhooksError('INVALID_OPTIONS', 'a tool needs a name and a run function (use tool(...) to define one)');
    }
    // A stranger's tool under a built-in name would get the built-in's permission rules and guards.
    const builtIn = kind === 'js' ? undefined : reservedToolName(name, this.reservedNames);
    if (builtIn !== undefined) throw reservedToolError(name, builtIn, plugin !== undefined ? `plugin ${plugin}` : `${kind} tool`);
    if (this.byName.has(name)) {
      const other = this.byName.get(name)?.handler.plugin;
      throw new WasmhooksError(
        'INVALID_CONFIG',
        `tool "${name}" is already registered${other ? ` by plugin ${other}` : ''}; tool names must be unique`,
      );
    }
    // A stranger's schema (WASM, MCP) is walked by the checker, sent to the model with every request
    // and written into events: one nested past the host's JSON limit is refused here, by name.
    if (typeof ownValidate !== 'function' && nestsDeeper(inputSchema)) {
      throw new WasmhooksError('INVALID_OPTIONS', tooDeep(`tool "${name}"${plugin !== undefined ? ` (${plugin})` : ''}: its input schema`));
    }
    const validate = typeof ownValidate === 'function' ? (input: unknown): ToolInputCheck => ownValidate.call(handler, input) : jsonSchemaChecker(inputSchema);
    const kept: ToolHandler = Object.freeze({
      name,
      description,
      inputSchema,
      kind,
      ...(plugin !== undefined ? { plugin } : {}),
      ...(concurrencySafe !== undefined ? { concurrencySafe: concurrencySafe === true } : {}),
      ...(typeof ownValidate === 'function' ? { validate } : {}),
      run: run.bind(handler),
    });
    this.byName.set(name, { handler: kept, validate });
    this.defs = undefined;
  }

  remove(name: string): boolean {
    this.defs = undefined;
    return this.byName.delete(name);
  }

  get(name: string): RegisteredTool | undefined {
    return this.byName.get(name);
  }

  list(): ToolHandler[] {
    return [...this.byName.values()].map((t) => t.handler);
  }

  /** What the model is told about the tools (cached until the set changes). */
  definitions(): ToolDefinition[] {
    this.defs ??= [...this.byName.values()].map(({ handler: h }) => ({
      name: h.name,
      description: h.description,
      inputSchema: h.inputSchema,
    }));
    return this.defs;
  }
}
