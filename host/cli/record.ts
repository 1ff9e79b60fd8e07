/**
 * `run --record file.jsonl`: every hook input of the run, one JSON object a
 * line, as hooks received it. `plugin test --events` replays such a file.
 */
import { createWriteStream } from 'node:fs';
import { HOOK_EVENT_NAMES, type HookCallbackMatcher, type HookInput, type HooksConfig } from '../hooks/types.js';

/** Hook name of the recorder; its own hook events are hidden from output. */
const RECORDER_NAME = 'wasmhooks:record';

export const isRecorderHook = (hookName: string): boolean => hookName.startsWith(`${RECORDER_NAME}#`);

export interface Recorder {
  hooks: HooksConfig;
  /** Records written so far. */
  readonly count: number;
  close(): Promise<void>;
}

export function createRecorder(path: string): Recorder {
  const out = createWriteStream(path, { flags: 'w' });
  let failed: Error | undefined;
  out.on('error', (e) => (failed = e));
  let count = 0;
  const group: HookCallbackMatcher = {
    name: RECORDER_NAME,
    hooks: [
      async (input) => {
        out.write(`${JSON.stringify(input)}\n`);
        count++;
        return {};
      },
    ],
  };
  const hooks: HooksConfig = {};
  for (const event of HOOK_EVENT_NAMES) hooks[event] = [group];
  return {
    hooks,
    get count() {
      return count;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (failed) return reject(failed);
        out.end(() => (failed ? reject(failed) : resolve()));
      }),
  };
}

/**
 * A recorded hook input as this version's hooks read it. Recordings made before SessionStart's field took
 * Claude Code's name carry `reason` ("startup") where inputs now carry `source`: such a line reads as
 * `source`, so old files replay as they did (the plugin's SessionPayload.reason, its matchers).
 */
export function recordedInput(recorded: { hook_event_name: string } & Record<string, unknown>): HookInput {
  if (recorded.hook_event_name !== 'SessionStart' || recorded.source !== undefined || typeof recorded.reason !== 'string') return recorded as unknown as HookInput;
  const { reason, ...rest } = recorded;
  return { ...rest, source: reason } as unknown as HookInput;
}
