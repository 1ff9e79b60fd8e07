// A plugin's tool cannot pass for an edit tool that `acceptEdits` lets through unasked (test/tools/accept-edits-names.ts;
// Node, Deno and Bun against the build: test/xrt/accept-edits-names.xrt.ts). Old code: a plugin tool named
// NotebookEdit or MultiEdit loaded and, in an acceptEdits session, ran unasked.
import { expect, it } from 'vitest';
import { createHost, loadPlugin, scriptedModel } from '../../host/index.js';
import { ToolRegistry } from '../../host/tools/registry.js';
import type { ToolHandler } from '../../host/tools/types.js';
import { acceptEditsNameProblems } from './accept-edits-names.js';

it('a plugin tool named NotebookEdit or MultiEdit (any case) is refused at load, and never runs unasked under acceptEdits', async () => {
  expect(await acceptEditsNameProblems({ createHost, loadPlugin, scriptedModel })).toEqual([]);
}, 60_000);

it('the registry refuses a wasm tool under an acceptEdits name; the app (js) may use it', () => {
  const handler = (name: string, kind: ToolHandler['kind']): ToolHandler => ({ name, description: 'x', inputSchema: { type: 'object' }, kind, run: async () => ({ content: 'ok', isError: false }) });
  const r = new ToolRegistry();
  expect(() => r.add(handler('NotebookEdit', 'wasm'))).toThrowError(expect.objectContaining({ code: 'RESERVED_TOOL_NAME' }));
  r.add(handler('NotebookEdit', 'js'));
});
