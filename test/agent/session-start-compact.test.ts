// SessionStart fires again after a compaction, with source `compact` (Claude Code's contract): a hook puts back
// what the summary lost, and its context reaches the next model call. Auto and manual compaction alike; not when
// PreCompact skipped the compaction; the event grammar takes it where the compaction was, and nowhere else.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { eventGrammarViolations } from '../../host/events/grammar.js';
import type { HostEvent } from '../../host/events/types.js';
import { createHost } from '../../host/host.js';
import type { HookInput, HookOutput } from '../../host/hooks/types.js';
import type { ModelRequest } from '../../host/models/types.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { tool } from '../../host/tools/define.js';
import { SMALL_WINDOW, collect } from './helpers.js';

const BIG = 'x'.repeat(800);
const read = tool('Read', 'Read a file', z.object({ file_path: z.string() }), ({ file_path }) => (file_path.endsWith('big') ? `big:${BIG}` : `contents of ${file_path}`));
const RULES = 'house rules: tabs, not spaces';

function setup(preCompact: HookOutput = {}) {
  const starts: HookInput[] = [];
  const model = scriptedModel([
    { toolCalls: [{ name: 'Read', input: { file_path: 'a' } }] },
    { toolCalls: [{ name: 'Read', input: { file_path: 'big' } }] },
    { text: 'SUMMARY' },
    { text: 'final answer' },
    { text: 'SUMMARY 2' },
    { text: 'second answer' },
  ]);
  const host = createHost({
    model,
    tools: [read],
    ...SMALL_WINDOW,
    hooks: {
      PreCompact: [{ hooks: [async () => preCompact] }],
      SessionStart: [
        { matcher: 'startup', hooks: [async (i) => (starts.push(i), { additionalContext: 'welcome' })] },
        { matcher: 'compact', hooks: [async (i) => (starts.push(i), { additionalContext: RULES })] },
      ],
    },
  });
  return { model, host, starts };
}

const texts = (request: ModelRequest | undefined) => JSON.stringify(request?.messages ?? []);

describe('SessionStart after a compaction (source compact)', () => {
  it('auto-compaction: fires after context.compacted, and its context reaches the next model call only', async () => {
    const { model, host, starts } = setup();
    const events = await collect(host.session(), 'read a, then big');
    expect(starts.map((i) => (i as { source?: string }).source)).toEqual(['startup', 'compact']);
    const compacted = events.findIndex((e) => e.type === 'context.compacted');
    const start = events.findIndex((e, i) => i > compacted && e.type === 'hook.start' && e.event === 'SessionStart');
    expect(compacted).toBeGreaterThan(0);
    expect(start).toBe(compacted + 1);
    expect(texts(model.requests[1])).not.toContain(RULES);
    expect(texts(model.requests[3])).toContain(RULES);
  });

  it('manual compact() between prompts: fires there, and the next prompt\'s first call carries its context', async () => {
    const { model, host, starts } = setup();
    const session = host.session();
    const seen: HostEvent[] = [];
    session.subscribe((e) => void seen.push(e));
    await collect(session, 'read a, then big');
    const result = await session.compact();
    expect(result.compacted).toBe(true);
    expect(starts.map((i) => (i as { source?: string }).source)).toEqual(['startup', 'compact', 'compact']);
    await collect(session, 'and now?');
    expect(texts(model.requests.at(-1))).toContain(RULES);
    expect(eventGrammarViolations(seen, { span: 'session' })).toEqual([]);
  });

  it('not when PreCompact skips the compaction', async () => {
    const { host, starts } = setup({ decision: 'deny', reason: 'keep it all' });
    const session = host.session();
    await collect(session, 'read a, then big');
    expect((await session.compact()).compacted).toBe(false);
    expect(starts.map((i) => (i as { source?: string }).source)).toEqual(['startup']);
  });

  it('the grammar: SessionStart right after context.compacted passes; anywhere else mid-prompt it does not', async () => {
    const { host } = setup();
    const events = await collect(host.session(), 'read a, then big');
    expect(eventGrammarViolations(events)).toEqual([]);
    // Move the compaction's SessionStart hook one event later (after the turn went on): refused.
    const at = events.findIndex((e) => e.type === 'context.compacted');
    const moved = [...events];
    const hooks = moved.splice(at + 1, 2);
    moved.splice(at + 2, 0, ...hooks);
    const renumbered = moved.map((e, i) => ({ ...e, seq: events[i]!.seq }));
    expect(eventGrammarViolations(renumbered).map((v) => v.message).join('\n')).toMatch(/SessionStart hook/);
  });
});
