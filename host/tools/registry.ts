/** The host's tools by name. Names are unique: a second tool with a taken name is refused. */
import { WasmhooksError } from '../errors.js';
import type { ToolDefinition } from '../models/types.js';
import type { ToolHandler, ToolInputCheck } from './types.js';
import { jsonSchemaChecker } from './define.js';

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

  add(handler: ToolHandler): void {
    if (typeof handler?.run !== 'function' || typeof handler.name !== 'string') {
      throw new WasmhooksError('INVALID_OPTIONS', 'a tool needs a name and a run function (use tool(...) to define one)');
    }
    if (this.byName.has(handler.name)) {
      const other = this.byName.get(handler.name)?.handler.plugin;
      throw new WasmhooksError(
        'INVALID_CONFIG',
        `tool "${handler.name}" is already registered${other ? ` by plugin ${other}` : ''}; tool names must be unique`,
      );
    }
    const validate = handler.validate
      ? (input: unknown) => (handler.validate as (i: unknown) => ToolInputCheck)(input)
      : jsonSchemaChecker(handler.inputSchema);
    this.byName.set(handler.name, { handler, validate });
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
