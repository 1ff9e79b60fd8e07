/** Read, Write and Edit: file tools confined to the workspace (see ./confine.ts). */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { z } from 'zod';
import type { ToolHandler } from '../types.js';
import { tool } from '../define.js';
import { confine } from './confine.js';
import type { WorkspaceLimits } from './limits.js';

const filePath = z.string().min(1).describe('Path of the file, absolute or relative to the workspace');

async function regularFile(path: string, shown: string, maxBytes: number): Promise<void> {
  const info = await stat(path);
  if (info.isDirectory()) throw new Error(`${shown} is a directory; use Glob to list it`);
  if (!info.isFile()) throw new Error(`${shown} is not a regular file`);
  if (info.size > maxBytes) throw new Error(`${shown} is ${info.size} bytes, above the ${maxBytes}-byte limit of the workspace tools`);
}

export function readTool(root: string, limits: WorkspaceLimits): ToolHandler {
  return tool(
    'Read',
    'Read a text file of the workspace. Lines come numbered (cat -n style); offset (1-based line) and limit select a window.',
    z.object({
      file_path: filePath,
      offset: z.number().int().positive().optional().describe('First line to show (1-based)'),
      limit: z.number().int().positive().optional().describe('How many lines to show'),
    }),
    async ({ file_path, offset, limit }) => {
      const path = await confine(root, file_path);
      await regularFile(path, file_path, limits.maxFileBytes);
      const lines = (await readFile(path, 'utf8')).split('\n');
      const first = (offset ?? 1) - 1;
      const shown = lines.slice(first, first + (limit ?? limits.maxReadLines));
      if (shown.length === 0) return `${file_path} has ${lines.length} lines; nothing at line ${first + 1}`;
      const body = shown.map((line, i) => `${String(first + i + 1).padStart(6)}\t${line}`).join('\n');
      const more = first + shown.length < lines.length ? `\n… ${lines.length - first - shown.length} more lines (use offset)` : '';
      return body + more;
    },
    { readOnly: true },
  );
}

export function writeTool(root: string, limits: WorkspaceLimits): ToolHandler {
  return tool(
    'Write',
    'Write a text file in the workspace (creating its folders), replacing what was there.',
    z.object({ file_path: filePath, content: z.string().max(limits.maxFileBytes) }),
    async ({ file_path, content }) => {
      const path = await confine(root, file_path);
      await mkdir(dirname(path), { recursive: true });
      // The folders just made were checked by confine; re-check the final path in case one was a link.
      await writeFile(await confine(root, path), content);
      return `wrote ${new TextEncoder().encode(content).length} bytes to ${relative(root, path) || path}`;
    },
  );
}

export function editTool(root: string, limits: WorkspaceLimits): ToolHandler {
  return tool(
    'Edit',
    'Replace text in a workspace file: old_string must occur exactly once, or set replace_all.',
    z.object({
      file_path: filePath,
      old_string: z.string().min(1),
      new_string: z.string(),
      replace_all: z.boolean().optional(),
    }),
    async ({ file_path, old_string, new_string, replace_all }) => {
      const path = await confine(root, file_path);
      await regularFile(path, file_path, limits.maxFileBytes);
      const text = await readFile(path, 'utf8');
      const count = text.split(old_string).length - 1;
      if (count === 0) return { content: `old_string was not found in ${file_path}`, isError: true };
      if (count > 1 && replace_all !== true) {
        return { content: `old_string occurs ${count} times in ${file_path}; give more context or set replace_all`, isError: true };
      }
      const out = replace_all === true ? text.split(old_string).join(new_string) : text.replace(old_string, () => new_string);
      await writeFile(path, out);
      return `replaced ${replace_all === true ? count : 1} occurrence${count === 1 || replace_all !== true ? '' : 's'} in ${relative(root, path) || path}`;
    },
  );
}
