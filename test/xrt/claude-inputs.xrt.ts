// Claude Code's hook inputs where ours differed, on Node, Deno and Bun against the build
// (test/agent/claude-inputs.ts; vitest twin: test/agent/claude-inputs.test.ts): the exact JSON a JS hook and a
// command hook (stdin) receive for SessionEnd (`reason` in Claude's words, `session.close({ reason })`),
// Notification (`title`) and SubagentStop (`last_assistant_message`).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { createHost, scriptedModel, shellHooks, tool } from '../../dist/index.js';
import { notificationInput, sessionEndReason, subagentStopInput, type InputsApi } from '../agent/claude-inputs.ts';

const api = { createHost, scriptedModel, shellHooks, tool, z } as unknown as InputsApi;

async function inTemp(run: (dir: string) => Promise<string[]>): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-claude-inputs-'));
  try {
    return await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const scenarios: Record<string, () => Promise<void>> = {
  "SessionEnd reason: 'other' from the host, the app's own from close({ reason }); matchers test it; an unknown reason is INVALID_OPTIONS": async () => {
    assert.deepEqual(await inTemp((dir) => sessionEndReason(api, dir)), []);
  },
  'Notification: message, title, level and notification_type permission_prompt': async () => {
    assert.deepEqual(await inTemp((dir) => notificationInput(api, dir)), []);
  },
  "SubagentStop: last_assistant_message is the sub-agent's last text, beside result (also when it ran out of model calls)": async () => {
    assert.deepEqual(await inTemp((dir) => subagentStopInput(api, dir)), []);
  },
};
