/**
 * The permission question on a terminal: when no hook or rule decided a tool
 * call and stdin is a TTY, `run` asks the person. Anything but yes or always
 * (including Ctrl-C or a closed stdin) is a denial.
 */
import process from 'node:process';
import { createInterface } from 'node:readline/promises';
import type { CanUseTool, PermissionAnswer } from '../permissions/types.js';
import { toolLabel } from './format.js';
import { printable } from './printable.js';

/** The longest input the question shows on one line, as the call lines do (`Bash(ls -la)`). */
const ONE_LINE_MAX = 60;

/**
 * The question for one call. The tool's name and input are the model's (or a
 * rewriting hook's) words: their control and bidi characters show as escapes,
 * so an erase-line and a cursor move in the input cannot make the question
 * read as another call's (red12). And the person answers about all of it: the
 * one-line label (toolLabel, made for the call lines) cuts at 60 characters
 * and folds whitespace, so `echo <60 harmless characters>; rm -rf ~` asked
 * "Allow Bash(echo …)?" and a newline before `rm -rf ~` read as an argument
 * of the echo (h6). An input the label would cut or fold is shown whole, as
 * indented JSON (a newline inside a string is `\n`).
 */
export function permissionQuestion(toolName: string, input: unknown): string {
  const answers = '[y]es / [a]lways / [N]o: ';
  const single = singleString(input);
  const shown = single ? single[1] : (JSON.stringify(input) ?? '');
  if (shown.length <= ONE_LINE_MAX && shown.replace(/\s+/g, ' ').trim() === shown) {
    // The call lines' label drops a lone field's name (`Bash(ls -la)`); the question keeps it: a lone
    // `dangerouslyDisableSandbox: "true"` read as `Bash(true)` (h6).
    const label = single ? `${printable(toolName)}(${printable(single[0])}: ${printable(single[1])})` : toolLabel(toolName, input, ONE_LINE_MAX);
    return `Allow ${label}? ${answers}`;
  }
  return `Allow ${printable(toolName)} with this input?\n${printable(JSON.stringify(input, null, 2) ?? String(input))}\n${answers}`;
}

/** An input of one string field, as [name, value] (what toolLabel shows as the value alone). */
function singleString(input: unknown): [string, string] | undefined {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return undefined;
  const entries = Object.entries(input);
  const [key, value] = entries[0] ?? [];
  return entries.length === 1 && key !== undefined && typeof value === 'string' ? [key, value] : undefined;
}

/** `onInterrupt` runs when the person presses Ctrl-C at the question (the run is aborted). */
export function terminalPermission(onInterrupt: () => void): CanUseTool {
  return async (toolName, input, info): Promise<PermissionAnswer> => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    rl.on('SIGINT', () => {
      rl.close();
      onInterrupt();
    });
    try {
      const answer = await rl.question(permissionQuestion(toolName, input), { signal: info.signal });
      const a = answer.trim().toLowerCase();
      if (a === 'y' || a === 'yes') return { behavior: 'allow' };
      if (a === 'a' || a === 'always') return { behavior: 'allow_always' };
      return { behavior: 'deny', message: 'the user said no' };
    } catch {
      return { behavior: 'cancelled' };
    } finally {
      rl.close();
    }
  };
}
