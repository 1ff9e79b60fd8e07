// conf4: the transcript and the event stream agree. One checker for the tests (vitest:
// test/agent/conf4-traces.test.ts; Node, Deno and Bun: test/xrt/conf4.xrt.ts), beside the event
// grammar (host/events/grammar.ts, which checks the stream alone). Only type imports from host/.
//
// What it holds a prompt to (docs/events.md, docs/agent.md):
// - each model message that ended (`message.end`, with content) is the assistant message the
//   conversation keeps, with that very content; one that failed or was aborted is not kept;
// - each call of a kept message has one tool result, right after it, in the model's order: the
//   `tool.output` (content, isError) or the `tool.denied` reason (an error) the stream showed;
// - a call of a message that was not kept (`tool.denied` model-error / aborted) leaves no result;
// - and, whatever the path, the conversation is one a provider accepts on the next turn: every
//   result answers a call of the assistant message just before it, every call is answered before
//   the next user or assistant message, no id twice.
import type { HostEvent, Message } from '../../host/index.js';

type Kept = Extract<Message, { role: 'assistant' | 'tool' }>;

/** The assistant messages and tool results the top-level agent's events say the conversation gained, in order. */
function expectedFromEvents(events: readonly HostEvent[]): { kept: Kept[]; compacted: boolean } {
  const top = events.find((e) => e.type === 'agent.start')?.agentId;
  const kept: Kept[] = [];
  let compacted = false;
  let calls: { id: string; name: string }[] = [];
  let ended = false;
  const settled = new Map<string, Kept>();
  const closeTurn = () => {
    if (ended) for (const c of calls) { const r = settled.get(c.id); if (r) kept.push(r); }
    calls = [];
    ended = false;
    settled.clear();
  };
  for (const e of events) {
    if (e.agentId !== top) continue;
    switch (e.type) {
      case 'context.compacted':
        // What came before is a summary now: only what follows is compared.
        kept.length = 0;
        compacted = true;
        break;
      case 'turn.start':
        closeTurn();
        break;
      case 'message.end':
        ended = true;
        if (e.content.length > 0) kept.push({ role: 'assistant', content: e.content });
        break;
      case 'tool.call':
        calls.push({ id: e.toolUseId, name: e.name });
        break;
      case 'tool.output':
        settled.set(e.toolUseId, { role: 'tool', toolUseId: e.toolUseId, toolName: e.name, content: e.content, isError: e.isError });
        break;
      case 'tool.denied':
        settled.set(e.toolUseId, { role: 'tool', toolUseId: e.toolUseId, toolName: e.name, content: e.reason, isError: true });
        break;
      case 'turn.end':
        closeTurn();
        break;
      default:
        break;
    }
  }
  return { kept, compacted };
}

/** Where the conversation is not one a provider accepts on the next turn (see the file's head). */
export function replayViolations(messages: readonly Message[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  let open: string[] = [];
  let answered = new Set<string>();
  messages.forEach((m, i) => {
    if (m.role === 'tool') {
      if (!open.includes(m.toolUseId)) out.push(`message ${i}: a result for ${m.toolUseId}, which the assistant message before it did not call`);
      else if (answered.has(m.toolUseId)) out.push(`message ${i}: a second result for ${m.toolUseId}`);
      else if (open[answered.size] !== m.toolUseId) out.push(`message ${i}: the result for ${m.toolUseId} out of the calls' order (${open.join(', ')})`);
      answered.add(m.toolUseId);
      return;
    }
    const missing = open.filter((id) => !answered.has(id));
    if (missing.length > 0) out.push(`message ${i} (${m.role}) before the results of ${missing.join(', ')}`);
    open = [];
    answered = new Set();
    if (m.role !== 'assistant') return;
    for (const p of m.content) {
      if (p.type !== 'tool_call') continue;
      if (seen.has(p.id)) out.push(`message ${i}: the call id ${p.id} again`);
      seen.add(p.id);
      open.push(p.id);
    }
  });
  // A conversation may end on its calls' results, never on calls left without one.
  const missing = open.filter((id) => !answered.has(id));
  if (missing.length > 0) out.push(`the conversation ends before the results of ${missing.join(', ')}`);
  return out;
}

/**
 * Where a prompt's events and the conversation it left disagree. `before`: the conversation's
 * length when the prompt started; `messages`: the session's messages after it.
 */
export function transcriptViolations(events: readonly HostEvent[], before: number, messages: readonly Message[]): string[] {
  const { kept, compacted } = expectedFromEvents(events);
  const added = (compacted ? messages : messages.slice(before)).filter((m): m is Kept => m.role !== 'user');
  // After a compaction the kept tail holds the last turns whole: the events after it must be its end.
  const actual = compacted ? added.slice(Math.max(0, added.length - kept.length)) : added;
  const out = replayViolations(messages);
  const show = (m: Kept | undefined) => (m === undefined ? 'nothing' : JSON.stringify(m).slice(0, 300));
  for (let i = 0; i < Math.max(kept.length, actual.length); i++) {
    if (JSON.stringify(kept[i]) !== JSON.stringify(actual[i])) {
      out.push(`kept message ${i}: the events say ${show(kept[i])}, the conversation holds ${show(actual[i])}`);
      break;
    }
  }
  return out;
}
