// A stand-in `Bash` tool for the scenarios' agent runs (test/fixtures/tools.ts's fakeBash, built
// as a plain ToolHandler of the dist build): records each command and answers `output` of it
// (nothing is executed).
import type { ToolHandler } from '../../dist/index.js';

export const fakeBash = (output: (command: string) => string, ran: string[] = []): ToolHandler => ({
  name: 'Bash',
  description: 'Runs a shell command',
  inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  kind: 'js',
  run: async (input: Record<string, unknown>) => {
    ran.push(String(input.command));
    return { content: output(String(input.command)), isError: false };
  },
});
