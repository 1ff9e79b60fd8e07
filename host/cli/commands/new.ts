/** `wasmhooks plugin new <name>` (placeholder until written below). */
import { CliError, type ExitCode } from '../exit.js';
import type { CliIO } from '../io.js';

export interface NewFlags {
  dir?: string;
}

export async function newCommand(name: string, flags: NewFlags, io: CliIO): Promise<ExitCode> {
  void flags;
  void io;
  throw new CliError(`plugin new ${name}: not available yet`);
}
