/**
 * A shell hook as configured: which event, which tools, what to run and for
 * how long. Shell hooks come only from trusted configuration (the operator's
 * `wasmhooks.json` or code), never from a plugin.
 */
import { z } from 'zod';
import { matcherCheck } from '../hooks/matcher.js';
import { HOOK_EVENT_NAMES } from '../hooks/types.js';
import { lazy } from '../lazy.js';

export const DEFAULT_SHELL_TIMEOUT_MS = 60_000;

// Built at first use (see lazy.ts): only shell hooks need it.
export const shellHookSpecSchema = lazy(() =>
  z
    .object({
      event: z.enum(HOOK_EVENT_NAMES, { error: `expected a hook event (${HOOK_EVENT_NAMES.join(', ')})` }),
      /** Matched against the whole tool name: absent, empty or `*` match every tool, else a regex (see hooks/matcher.ts). */
      matcher: z.string({ error: 'expected a regular expression as a string' }).superRefine(matcherCheck).optional(),
      /** Run with `sh -c`; the hook input arrives as JSON on stdin. */
      command: z.string({ error: 'expected a shell command as a string' }).min(1, { error: 'expected a non-empty command' }),
      /** The process group is killed after this long. Default 60 000. */
      timeoutMs: z
        .number({ error: 'expected a positive integer' })
        .int({ error: 'expected a positive integer' })
        .positive({ error: 'expected a positive integer' })
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
    .strict(),
);

/**
 * @example
 * { event: 'PreToolUse', matcher: 'Bash', command: './hooks/check-bash.sh', timeoutMs: 5000 }
 */
export type ShellHookSpec = z.input<ReturnType<typeof shellHookSpecSchema>>;
