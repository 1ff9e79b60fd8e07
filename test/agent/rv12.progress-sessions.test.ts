// rv12: red11's progress gate cached whether a PostToolUse hook applies to the call by the identity
// of the registry's list, but a handler's `sessions` set is its owner's to grow in place (the
// server's remote hooks add a session to one shared Set without replacing the list): a redactor that
// came to apply to the session while its tool ran let the rest of the progress out. Fails on
// red11's code (the secret after the set grew was shown).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from '../../host/models/scripted.js';
import { tool } from '../../host/tools/define.js';
import { PROGRESS_WITHHELD } from '../../host/agent/progress-gate.js';
import type { HookHandler } from '../../host/hooks/types.js';
import { collect, host, ofType } from './helpers.js';

const SECRET = 'sk-live-0123456789abcdef';

describe('rv12: a redactor whose sessions grow mid-call', () => {
  it('withholds what comes after the session joined its set', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'Leak', input: {} }] }, { text: '.' }]);
    const h = host({ model, permissionMode: 'bypassPermissions' });
    const sessions = new Set<string>();
    const redactor: HookHandler = {
      id: 'redactor',
      name: 'redactor',
      kind: 'js',
      event: 'PostToolUse',
      sessions,
      failurePolicy: 'fail-open',
      timeoutMs: 5_000,
      run: async (input) => ({ ok: true, output: { updatedOutput: String((input as { tool_response?: string }).tool_response ?? '').replaceAll(SECRET, '[redacted]') } }),
    };
    h.hooks.addHandler(redactor);
    const session = h.session();
    h.tools.add(
      tool('Leak', 'leaks', z.object({}), (_i, ctx) => {
        ctx.onProgress('before');
        sessions.add(session.id);
        ctx.onProgress(SECRET);
        ctx.onProgress(SECRET);
        return `out ${SECRET}`;
      }),
    );
    const events = await collect(session, 'go');
    expect(ofType(events, 'tool.progress').map((e) => e.progress)).toEqual(['before', PROGRESS_WITHHELD]);
    expect(JSON.stringify(events)).not.toContain(SECRET);
  });
});
