/**
 * Exit codes of the `wasmhooks` command. docs/cli.md lists them; keep the two together.
 */
import type { AgentResult } from '../events/types.js';

export const EXIT = {
  /** The command did what was asked (a run ended with `success`). */
  OK: 0,
  /** Something failed: a plugin or model error, a run that ended in error. */
  ERROR: 1,
  /** The command line or the config file is wrong (bad flag, missing argument, invalid wasmhooks.json). */
  USAGE: 2,
  /** `run` hit `--max-turns` (error_max_turns). */
  MAX_TURNS: 3,
  /** `run`: a hook refused the prompt or stopped the turn. */
  STOPPED_BY_HOOK: 4,
  /** `plugin test`: the two builds (`--against`) decided differently, or an expectation in the events file was not met. */
  DIFFERENT: 5,
  /** Interrupted (Ctrl-C), as shells report SIGINT. */
  ABORTED: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error the CLI reports as one line on stderr, with an exit code. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.ERROR,
  ) {
    super(message);
  }
}

/** The exit code of a finished run. */
export function exitCodeOf(result: AgentResult): ExitCode {
  switch (result.subtype) {
    case 'success':
      return result.stoppedBy ? EXIT.STOPPED_BY_HOOK : EXIT.OK;
    case 'error_max_turns':
      return EXIT.MAX_TURNS;
    case 'aborted':
      return EXIT.ABORTED;
    case 'error_during_execution':
      return EXIT.ERROR;
    default: {
      const never: never = result.subtype;
      return never;
    }
  }
}
