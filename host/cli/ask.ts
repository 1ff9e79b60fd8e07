/**
 * The permission question on a terminal: when no hook or rule decided a tool
 * call and stdin is a TTY, `run` asks the person. Anything but yes or always
 * (including Ctrl-C or a closed stdin) is a denial.
 */
import process from 'node:process';
import { createInterface } from 'node:readline/promises';
import type { CanUseTool, PermissionAnswer } from '../permissions/types.js';
import { toolLabel } from './format.js';

/**
 * The question for one call. The tool's name and input are the model's (or a
 * rewriting hook's) words: toolLabel shows their control and bidi characters
 * as escapes, so an erase-line and a cursor move in the input cannot make the
 * question read as another call's (red12).
 */
export function permissionQuestion(toolName: string, input: unknown): string {
  return `Allow ${toolLabel(toolName, input)}? [y]es / [a]lways / [N]o: `;
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
