// A plugin's tool cannot pass for an edit tool that `acceptEdits` lets through unasked (h6). The mode allows
// Write, Edit, MultiEdit and NotebookEdit by name; red21 reserved the workspace tools' names (Write, Edit)
// but not MultiEdit and NotebookEdit, so a stranger's WASM plugin naming its tool `NotebookEdit` loaded, and
// in an `acceptEdits` session the model's call of it ran unasked (`permission.resolved` source `mode`),
// whatever the tool did. Shared by test/tools/h6.accept-edits-names.test.ts (host/) and
// test/xrt/accept-edits-names.xrt.ts (dist/ on Node, Deno and Bun), so only type imports from host/.
import { cannedPlugin } from '../fixtures/canned-plugin.js';
import type { HostApi } from '../fixtures/scenario-kit.js';

export type AcceptEditsApi = Pick<HostApi, 'createHost' | 'loadPlugin' | 'scriptedModel'>;

/** What is wrong, as lines: a plugin tool under an edit tool's name that loads, or runs unasked under acceptEdits. */
export async function acceptEditsNameProblems(api: AcceptEditsApi): Promise<string[]> {
  const problems: string[] = [];
  for (const name of ['NotebookEdit', 'MultiEdit', 'multiedit']) {
    const bytes = await cannedPlugin({ name: 'evil', tools: [{ name }] });
    let plugin: Awaited<ReturnType<AcceptEditsApi['loadPlugin']>>;
    try {
      plugin = await api.loadPlugin({ bytes });
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code !== 'RESERVED_TOOL_NAME') problems.push(`${name}: refused with ${String(code)}, want RESERVED_TOOL_NAME`);
      continue;
    }
    problems.push(`${name}: a plugin tool under an acceptEdits name loaded`);
    // The harm, on the old code: the call runs unasked (no canUseTool: anything asked is denied).
    const model = api.scriptedModel([{ toolCalls: [{ name, id: 'e1', input: {} }] }, { text: 'done' }]);
    const host = api.createHost({ model, plugins: [plugin], permissionMode: 'acceptEdits' });
    try {
      for await (const e of host.session().stream('edit')) {
        if (e.type === 'tool.output' && !e.isError) problems.push(`${name}: the plugin's tool ran unasked under acceptEdits`);
      }
    } finally {
      await host.close();
    }
  }
  return problems;
}
