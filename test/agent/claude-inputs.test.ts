// Claude Code's hook inputs where ours differed (claude-inputs.ts) against the sources; the same run on Node,
// Deno and Bun against dist/ in test/xrt/claude-inputs.xrt.ts. Each failed on the old code: SessionEnd said
// `reason: 'closed'` (a value Claude Code never sends, so a ported `other` or `logout` matcher never fired)
// and `close()` took no reason; Notification had no `title`; SubagentStop had no `last_assistant_message`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHost, scriptedModel, shellHooks, tool } from '../../host/index.js';
import { notificationInput, sessionEndReason, subagentStopInput } from './claude-inputs.js';

const api = { createHost, scriptedModel, shellHooks, tool, z };
let dir = '';

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wasmhooks-claude-inputs-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("Claude Code's hook inputs, as a JS hook and a command hook (stdin) receive them", () => {
  it("SessionEnd reason: 'other' from the host, the app's own from close({ reason }); matchers test it; an unknown reason is INVALID_OPTIONS", async () => {
    expect(await sessionEndReason(api, dir)).toEqual([]);
  });

  it('Notification: message, title, level and notification_type permission_prompt', async () => {
    expect(await notificationInput(api, dir)).toEqual([]);
  });

  it("SubagentStop: last_assistant_message is the sub-agent's last text, beside result (also when it ran out of model calls)", async () => {
    expect(await subagentStopInput(api, dir)).toEqual([]);
  });
});
