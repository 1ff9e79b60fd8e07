/** Glob and Grep: read-only searches below a folder of the workspace. */
import { readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { RE2JS } from 're2js';
import { z } from 'zod';
import type { ToolHandler } from '../types.js';
import { tool } from '../define.js';
import { confine } from './confine.js';
import type { WorkspaceLimits } from './limits.js';
import { globMatcher, walkFiles } from './walk.js';

const MAX_PATTERN = 1000;
const folder = z.string().min(1).optional().describe('Folder to search, absolute or relative to the workspace (default: the workspace)');

/** The folder to walk, confined, and how to print a found path (relative to the workspace). */
async function base(root: string, path: string | undefined) {
  const dir = await confine(root, path ?? '.');
  const info = await stat(dir);
  return { dir, isFile: info.isFile(), show: (rel: string) => relative(root, join(dir, rel)) || '.' };
}

function checkGlob(pattern: string): void {
  if (pattern.startsWith('/') || pattern.split('/').includes('..')) {
    throw new Error(`pattern ${JSON.stringify(pattern)} must be relative to path, without "..": give the folder as path`);
  }
}

export function globTool(root: string, limits: WorkspaceLimits): ToolHandler {
  return tool(
    'Glob',
    'List workspace files matching a glob (`**/*.ts`, `src/*.{js,json}`; a pattern without `/` matches names at any depth), sorted by path.',
    z.object({ pattern: z.string().min(1).max(MAX_PATTERN), path: folder }),
    async ({ pattern, path }, ctx) => {
      checkGlob(pattern);
      const where = await base(root, path);
      if (where.isFile) throw new Error(`${path} is a file; give a folder as path`);
      const match = globMatcher(pattern);
      const walked = await walkFiles(where.dir, limits.maxWalkEntries, ctx.signal);
      const found = walked.files.filter(match).sort();
      const shown = found.slice(0, limits.maxResults).map(where.show);
      const notes = [
        ...(found.length > shown.length ? [`… ${found.length - shown.length} more matches`] : []),
        ...(walked.truncated ? [`(stopped after ${limits.maxWalkEntries} entries; narrow the path)`] : []),
      ];
      if (shown.length === 0) return ['no files match', ...notes].join('\n');
      return [...shown, ...notes].join('\n');
    },
    { readOnly: true },
  );
}

const looksBinary = (bytes: Uint8Array) => bytes.subarray(0, 8000).includes(0);

export function grepTool(root: string, limits: WorkspaceLimits): ToolHandler {
  return tool(
    'Grep',
    'Search workspace files for a regular expression (RE2 syntax). output_mode: files_with_matches (default), content (path:line:text) or count.',
    z.object({
      pattern: z.string().min(1).max(MAX_PATTERN),
      path: folder,
      glob: z.string().min(1).max(MAX_PATTERN).optional().describe('Only files matching this glob'),
      ignore_case: z.boolean().optional(),
      output_mode: z.enum(['files_with_matches', 'content', 'count']).optional(),
    }),
    async ({ pattern, path, glob, ignore_case, output_mode }, ctx) => {
      let re: RE2JS;
      try {
        re = RE2JS.compile(pattern, ignore_case === true ? RE2JS.CASE_INSENSITIVE : 0);
      } catch (error) {
        return { content: `invalid pattern: ${error instanceof Error ? error.message : String(error)}`, isError: true };
      }
      if (glob) checkGlob(glob);
      const where = await base(root, path);
      const walked = where.isFile ? { files: [''], truncated: false } : await walkFiles(where.dir, limits.maxWalkEntries, ctx.signal);
      const only = glob ? globMatcher(glob) : () => true;
      const mode = output_mode ?? 'files_with_matches';
      const out: string[] = [];
      for (const rel of walked.files) {
        if (out.length >= limits.maxResults) break;
        if (rel !== '' && !only(rel)) continue;
        ctx.signal.throwIfAborted();
        let file: string;
        try {
          // Each file is confined again: a listed symlink may point out of the workspace.
          file = await confine(root, join(where.dir, rel));
          const info = await stat(file);
          if (!info.isFile() || info.size > limits.maxFileBytes) continue;
        } catch {
          continue;
        }
        const bytes = new Uint8Array(await readFile(file));
        if (looksBinary(bytes)) continue;
        const lines = new TextDecoder().decode(bytes).split('\n');
        const shown = rel === '' ? relative(root, file) : where.show(rel);
        let count = 0;
        for (const [i, line] of lines.entries()) {
          if (!re.matcher(line).find()) continue;
          count++;
          if (mode === 'content') {
            out.push(`${shown}:${i + 1}:${line.length > 500 ? `${line.slice(0, 500)}…` : line}`);
            if (out.length >= limits.maxResults) break;
          } else if (mode === 'files_with_matches') break;
        }
        if (count > 0 && mode === 'files_with_matches') out.push(shown);
        if (count > 0 && mode === 'count') out.push(`${shown}:${count}`);
      }
      if (out.length === 0) return 'no matches';
      const capped = out.length >= limits.maxResults ? `\n… (stopped at ${limits.maxResults} results)` : '';
      return out.join('\n') + capped + (walked.truncated ? `\n(stopped after ${limits.maxWalkEntries} entries; narrow the path)` : '');
    },
    { readOnly: true },
  );
}
