// Red review (red8), class "an aborted chain answers for hooks that never ran": the prompt's abort
// cuts a hook chain short, and what the hooks before it decided (an `allow`, an unredacted output)
// was the chain's answer. Now a cut chain fails closed at the chain itself, for every consumer; the
// loop's own abort checks stay a second line. Each test fails on the code before the fix.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dispatch } from '../../host/hooks/dispatch.js';
import { HookRegistry } from '../../host/hooks/registry.js';
import type { EmittedEvent } from '../../host/events/types.js';
import type { HookCallback, HookEventName, HookInput } from '../../host/hooks/types.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { tool } from '../../host/tools/define.js';
import { collect, host, ofType } from '../agent/helpers.js';

const common = { session_id: 's', cwd: '/proj', turn: 1, iteration: 1, permission_mode: 'default' as const };
const toolInput = (event: HookEventName): HookInput =>
  ({
    ...common,
    hook_event_name: event,
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
    tool_use_id: 't1',
    ...(event === 'PostToolUse' ? { tool_response: 'SECRET=hunter2', duration_ms: 1 } : {}),
    ...(event === 'UserPromptSubmit' ? { prompt: 'p' } : {}),
    ...(event === 'Stop' || event === 'SubagentStop' ? { stop_hook_active: false, last_assistant_message: 'x' } : {}),
  }) as HookInput;

/** A chain of: `first` (answers at once), then a fail-open hook that aborts the prompt and waits for it, then `last`. */
async function cut(event: HookEventName, first: Awaited<ReturnType<HookCallback>>, last: { failurePolicy: 'fail-closed' | 'fail-open'; answer: Awaited<ReturnType<HookCallback>> }) {
  const registry = new HookRegistry();
  const controller = new AbortController();
  const events: EmittedEvent[] = [];
  let lastRan = false;
  registry.add(event, { hooks: [async () => first] });
  registry.add(event, {
    failurePolicy: 'fail-open',
    hooks: [(_i, _id, { signal }) => (controller.abort(), new Promise((resolve) => signal.addEventListener('abort', () => resolve({}))))],
  });
  registry.add(event, { failurePolicy: last.failurePolicy, hooks: [async () => ((lastRan = true), last.answer)] });
  const out = await dispatch({ registry, emit: (e) => void events.push(e), signal: controller.signal }, event, () => toolInput(event) as never);
  expect(lastRan).toBe(false);
  return { out, events };
}

describe('a hook chain the abort cuts short fails closed', () => {
  it('PreToolUse: an earlier allow (and rewrite) is not the answer: deny, no updatedInput', async () => {
    const { out } = await cut('PreToolUse', { decision: 'allow', updatedInput: { command: 'rm -rf /' } }, { failurePolicy: 'fail-closed', answer: { decision: 'deny' } });
    expect(out).toMatchObject({ decision: 'deny', aborted: true });
    expect(out.updatedInput).toBeUndefined();
    expect(out.decidedBy).toBeUndefined();
  });

  it('PermissionRequest: an earlier allow is not the answer: deny', async () => {
    const { out } = await cut('PermissionRequest', { decision: 'allow' }, { failurePolicy: 'fail-closed', answer: { decision: 'deny' } });
    expect(out).toMatchObject({ decision: 'deny', aborted: true });
  });

  it('UserPromptSubmit: deny', async () => {
    const { out } = await cut('UserPromptSubmit', {}, { failurePolicy: 'fail-closed', answer: { decision: 'deny' } });
    expect(out).toMatchObject({ decision: 'deny', aborted: true });
  });

  it('Stop and SubagentStop: never block (no loop on an aborted prompt)', async () => {
    for (const event of ['Stop', 'SubagentStop'] as const) {
      const { out } = await cut(event, { decision: 'block', reason: 'again' } as never, { failurePolicy: 'fail-open', answer: {} });
      // A block ends the chain at once; an aborted chain after a continue stays continue.
      expect(out.decision).toBe('block');
      const second = await cut(event, {}, { failurePolicy: 'fail-closed', answer: { decision: 'block', reason: 'again' } as never });
      expect(second.out).toMatchObject({ decision: 'continue', aborted: true });
    }
  });

  it('PostToolUse: a fail-closed redactor that never ran withholds the output', async () => {
    const { out } = await cut('PostToolUse', {}, { failurePolicy: 'fail-closed', answer: { updatedOutput: 'SECRET=[redacted]' } });
    expect(out.aborted).toBe(true);
    expect(out.updatedOutput).toMatch(/^\[output withheld: the prompt was aborted/);
  });

  it('PostToolUse: an earlier hook\'s rewrite is withheld too while a fail-closed one is left', async () => {
    const { out } = await cut('PostToolUse', { updatedOutput: 'half-redacted SECRET' }, { failurePolicy: 'fail-closed', answer: {} });
    expect(out.updatedOutput).not.toMatch(/SECRET/);
  });

  it('PostToolUse with only fail-open hooks left: the output stands (their policy lets them be skipped)', async () => {
    const { out } = await cut('PostToolUse', {}, { failurePolicy: 'fail-open', answer: {} });
    expect(out.updatedOutput).toBeUndefined();
  });

  it('a chain dispatched after the abort runs no hook and fails closed', async () => {
    const registry = new HookRegistry();
    registry.add('PreToolUse', { hooks: [async () => ({ decision: 'allow' as const })] });
    const controller = new AbortController();
    controller.abort();
    const events: EmittedEvent[] = [];
    const out = await dispatch({ registry, emit: (e) => void events.push(e), signal: controller.signal }, 'PreToolUse', () => toolInput('PreToolUse') as never);
    expect(out).toMatchObject({ decision: 'deny', aborted: true });
    expect(events).toEqual([]);
  });
});

describe('in the loop: an abort while PostToolUse hooks run never lets unredacted output through', () => {
  for (const when of ['during an earlier PostToolUse hook']) {
    it(when, async () => {
      const model = scriptedModel({ rules: [{ when: { lastUser: 'go' }, reply: { toolCalls: [{ name: 'Leak', input: {} }] }, times: 1 }], turns: [{ text: 'done' }] });
      let abort = () => {};
      const observer: HookCallback = (_i, _id, { signal }) => (abort(), new Promise((resolve) => signal.addEventListener('abort', () => resolve({}))));
      const redactor: HookCallback = async (input) => ({ updatedOutput: String((input as { tool_response: string }).tool_response).replace(/hunter2/g, '[redacted]') });
      const hooks = [{ hooks: [observer] }, { failurePolicy: 'fail-closed' as const, hooks: [redactor] }];
      const h = host({ model, permissionMode: 'bypassPermissions', hooks: { PostToolUse: hooks } });
      h.tools.add(tool('Leak', 'leaks', z.object({}), () => 'SECRET=hunter2'));
      const session = h.session();
      abort = () => session.abort();
      const events = await collect(session, 'go');
      const outputs = ofType(events, 'tool.output').map((e) => e.content);
      expect(outputs.join()).not.toMatch(/hunter2/);
      expect(JSON.stringify(session.messages)).not.toMatch(/hunter2/);
    });
  }
});
