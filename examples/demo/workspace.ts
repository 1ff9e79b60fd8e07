// The demo's tools: a pretend shell and file system over an in-memory
// workspace, so the demo is safe to run anywhere (nothing touches the disk).
import { z } from 'zod';
import { tool } from '../../host/index.js';

export const WORKSPACE = '/demo/app';

const files = new Map<string, string>([
  [`${WORKSPACE}/README.md`, '# app\nA tiny app.\n'],
  [`${WORKSPACE}/.env`, 'OPENAI_API_KEY=sk-proj-4f9a2c7e1b8d3f6a0c5e9b2d7f1a4c8e\nPORT=3000\n'],
  [`${WORKSPACE}/src/add.ts`, 'export const add = (a: number, b: number) => a + b;\n'],
]);

const shell: Record<string, string> = {
  'ls -la': 'drwxr-xr-x  .\n-rw-r--r--  .env\n-rw-r--r--  README.md\ndrwxr-xr-x  src\n',
  'npm test': '✓ src/add.test.ts (1 test)\nTest Files  1 passed (1)\n',
};

export const tools = [
  tool('Bash', 'Runs a shell command in the workspace (simulated).', z.object({ command: z.string() }), ({ command }, ctx) => {
    ctx.onProgress(`$ ${command}`);
    const out = shell[command];
    if (out === undefined) throw new Error(`sh: ${command.split(' ')[0]}: not available in the demo shell`);
    return out;
  }),
  tool('Read', 'Reads a file of the workspace.', z.object({ file_path: z.string() }), ({ file_path }) => {
    const text = files.get(file_path);
    if (text === undefined) throw new Error(`ENOENT: ${file_path}`);
    return text;
  }),
];
