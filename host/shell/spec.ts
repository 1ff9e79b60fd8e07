/**
 * A shell hook as configured: which event, which tools, what to run and for
 * how long. Shell hooks come only from trusted configuration (the operator's
 * `wasmhooks.json` or code), never from a plugin.
 */
import { z } from 'zod';
import { matcherCheck } from '../hooks/matcher.js';
import { HOOK_EVENT_NAMES } from '../hooks/types.js';
import { lazy } from '../lazy.js';
import { BOTH_TIMEOUTS } from '../hooks/timeout.js';

// Built at first use (see lazy.ts): only shell hooks need it.
/**
 * Claude Code's variable for the project root, which its hook commands name scripts by
 * (`"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh`): set for every shell hook (the config file's folder, or
 * the session's cwd for a hook made in code without `baseDir`), so such a command runs here as written.
 * Workspace trust hashes a file named through it (cli/trust-files.ts).
 */
export const PROJECT_DIR_VAR = 'CLAUDE_PROJECT_DIR';

export const shellHookSpecSchema = lazy(() =>
  z
    .object({
      event: z.enum(HOOK_EVENT_NAMES, { error: `expected a hook event (${HOOK_EVENT_NAMES.join(', ')})` }),
      /** Matched against the whole tool name (or the event's `matchOn` field, hooks/decisions.ts): absent, empty or `*` match all, else a regex (see hooks/matcher.ts). */
      matcher: z.string({ error: 'expected a regular expression as a string' }).superRefine(matcherCheck).optional(),
      /** Run with `sh -c`; the hook input arrives as JSON on stdin. */
      command: z.string({ error: 'expected a shell command as a string' }).min(1, { error: 'expected a non-empty command' }),
      /** Claude Code's `"type": "command"`, accepted so its hook entries port as written. */
      type: z
        .literal('command', { error: 'expected "command": shell hooks run commands (Claude Code\'s "prompt", "agent" and "http" hooks have no shell equivalent)' })
        .optional(),
      /** The process group is killed after this long. Default 60 000. */
      timeoutMs: z
        .number({ error: 'expected a positive integer' })
        .int({ error: 'expected a positive integer' })
        .positive({ error: 'expected a positive integer' })
        .optional(),
      /** The same in seconds, as Claude Code's settings.json writes it (give one of the two). */
      timeout: z
        .number({ error: 'expected a positive number of seconds' })
        .positive({ error: 'expected a positive number of seconds' })
        .optional(),
      /** Default: closed for PreToolUse, PermissionRequest and UserPromptSubmit, open for the rest. */
      failurePolicy: z.enum(['fail-closed', 'fail-open'], { error: 'expected "fail-closed" or "fail-open"' }).optional(),
      /** Working directory of the command. */
      cwd: z.string({ error: 'expected a path as a string' }).optional(),
      /** Extra environment variables for the command. */
      env: z.record(z.string(), z.string({ error: 'expected a string value' })).optional(),
      /** Shown in hook events; default `shell:<command>`. */
      name: z.string().optional(),
    })
    .strict()
    .refine((spec) => spec.timeout === undefined || spec.timeoutMs === undefined, { error: BOTH_TIMEOUTS, path: ['timeout'] }),
);

/**
 * @example
 * { event: 'PreToolUse', matcher: 'Bash', command: './hooks/check-bash.sh', timeoutMs: 5000 }
 */
export type ShellHookSpec = z.input<ReturnType<typeof shellHookSpecSchema>>;
