// red11: a tool's progress is its own text, sent before PostToolUse hooks see the output. While an output
// hook (a redactor) applies to the call, progress is withheld after one note (host/agent/progress-gate.ts);
// on the old code the secret the redactor takes out of tool.output reached every watcher as tool.progress.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from '../../host/models/scripted.js';
import { tool } from '../../host/tools/define.js';
import { PROGRESS_WITHHELD } from '../../host/agent/progress-gate.js';
import type { HookCallback, HooksConfig } from '../../host/hooks/types.js';
import { collect, host, ofType } from './helpers.js';

const SECRET = 'sk-live-0123456789abcdef';
const redact: HookCallback = async (input) => (input.hook_event_name === 'PostToolUse' || input.hook_event_name === 'PostToolUseFailure' ? { updatedOutput: (input.tool_response ?? '').replaceAll(SECRET, '[redacted]') } : {});

async function run(hooks: HooksConfig, fails = false) {
  const model = scriptedModel([{ toolCalls: [{ name: 'Leak', input: {} }] }, { text: '.' }]);
  const h = host({ model, permissionMode: 'bypassPermissions', hooks });
  h.tools.add(
    tool('Leak', 'leaks', z.object({}), (_i, ctx) => {
      ctx.onProgress(`step 1 ${SECRET}`);
      ctx.onProgress(`step 2 ${SECRET}`);
      if (fails) throw new Error(`failed with ${SECRET}`);
      return `out ${SECRET}`;
    }),
  );
  const events = await collect(h.session(), 'go');
  return { events, progress: ofType(events, 'tool.progress').map((e) => e.progress) };
}

describe('red11: progress and output hooks', () => {
  it('a redacting PostToolUse hook (fail-open, the default) withholds the call\'s progress: the secret is in no event', async () => {
    const { events, progress } = await run({ PostToolUse: [{ hooks: [redact] }] });
    expect(progress).toEqual([PROGRESS_WITHHELD]);
    expect(JSON.stringify(events)).not.toContain(SECRET);
    expect(ofType(events, 'tool.output')[0]!.content).toBe('out [redacted]');
  });

  it('a PostToolUseFailure hook alone reviews error text, not output: progress stays (an observer of failures on every tool is common)', async () => {
    const { progress } = await run({ PostToolUseFailure: [{ failurePolicy: 'fail-closed', hooks: [redact] }] }, true);
    expect(progress).toEqual([`step 1 ${SECRET}`, `step 2 ${SECRET}`]);
  });

  it('a hook whose matcher names another tool, or no output hook at all, leaves progress as it is', async () => {
    expect((await run({ PostToolUse: [{ matcher: 'Other', hooks: [redact] }] })).progress).toEqual([`step 1 ${SECRET}`, `step 2 ${SECRET}`]);
    expect((await run({ PreToolUse: [{ hooks: [async () => ({})] }] })).progress).toHaveLength(2);
  });

  it('a hook registered while the tool runs withholds what comes after it', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'Leak', input: {} }] }, { text: '.' }]);
    const h = host({ model, permissionMode: 'bypassPermissions' });
    h.tools.add(
      tool('Leak', 'leaks', z.object({}), (_i, ctx) => {
        ctx.onProgress('before');
        h.hooks.add('PostToolUse', { hooks: [redact] });
        ctx.onProgress(SECRET);
        ctx.onProgress(SECRET);
        return 'ok';
      }),
    );
    const events = await collect(h.session(), 'go');
    expect(ofType(events, 'tool.progress').map((e) => e.progress)).toEqual(['before', PROGRESS_WITHHELD]);
  });
});
