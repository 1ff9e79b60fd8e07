// `host.clear(session)`, Claude Code's `/clear`: the session ends (SessionEnd `clear`), an empty conversation
// starts under a new id with the old one's options, and its first prompt fires SessionStart `clear` (a
// `clear` matcher runs). The old conversation stays in the store and `host.resume` continues it. Bad
// options are refused before anything closes. Written against an Api (host/ under vitest:
// session-clear.test.ts; dist/ on Node, Deno and Bun: test/xrt/session-clear.xrt.ts). Returns what is wrong.
import { join } from 'node:path';
import type { createHost as CreateHost, HookInput, openStore as OpenStore, scriptedModel as ScriptedModel } from '../../host/index.js';

export interface ClearApi {
  createHost: typeof CreateHost;
  scriptedModel: typeof ScriptedModel;
  openStore: typeof OpenStore;
}

const same = (what: string, got: unknown, want: unknown, problems: string[]) => {
  if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${what}: got ${JSON.stringify(got)}, wanted ${JSON.stringify(want)}`);
};

/** What `fn` threw: its code, or 'nothing'. */
async function thrown(fn: () => unknown): Promise<string> {
  try {
    await fn();
    return 'nothing';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

export async function clearedSession(api: ClearApi, dir: string): Promise<string[]> {
  const problems: string[] = [];
  const seen: string[] = [];
  const note = (label: string) => async (input: HookInput) => {
    const id = input.session_id === first?.id ? 'A' : input.session_id === second?.id ? 'B' : input.session_id;
    if (input.hook_event_name === 'SessionStart') seen.push(`${label}:start:${input.source}:${id}:${input.cwd}:${input.permission_mode}`);
    if (input.hook_event_name === 'SessionEnd') seen.push(`${label}:end:${input.reason}:${id}`);
    return {};
  };
  const opened = await api.openStore({ kind: 'file', dataDir: join(dir, 'data') });
  const host = api.createHost({
    model: api.scriptedModel({ rules: [{ when: () => true, reply: { text: 'fine' } }] }),
    store: opened.store,
    hooks: {
      SessionStart: [{ hooks: [note('all')] }, { matcher: 'clear', hooks: [note('clear')] }],
      SessionEnd: [{ matcher: 'clear', hooks: [note('clear')] }],
    },
  });
  let first: { id: string } | undefined;
  let second: { id: string } | undefined;
  try {
    const a = host.session({ cwd: '/proj-a', permissionMode: 'acceptEdits' });
    first = a;
    await a.prompt('one');
    // Refused before anything closes: a new id or a history is not the caller's to give.
    same('clear with a sessionId', await thrown(() => host.clear(a, { sessionId: 'mine' } as never)), 'INVALID_OPTIONS', problems);
    same('clear with a bad option', await thrown(() => host.clear(a, { maxTurns: -1 })), 'INVALID_OPTIONS', problems);
    same('clear of another host\u2019s session', await thrown(() => api.createHost({}).clear(a)), 'INVALID_OPTIONS', problems);
    same('session A after refused clears', seen.splice(0), ['all:start:startup:A:/proj-a:acceptEdits'], problems);

    const b = await host.clear(a, { permissionMode: 'dontAsk' });
    second = b;
    if (b.id === a.id) problems.push('the cleared conversation kept the old id');
    same('new conversation', b.messages.length, 0, problems);
    same('A after clear', await thrown(() => a.prompt('again')), 'SESSION_CLOSED', problems);
    await b.prompt('two');
    same('clear, then the first prompt', seen.splice(0), ['clear:end:clear:A', 'all:start:clear:B:/proj-a:dontAsk', 'clear:start:clear:B:/proj-a:dontAsk'], problems);
    await b.prompt('three');
    same('second prompt after clear', seen.splice(0), [], problems);
    same('B holds its own prompts', b.messages.length, 4, problems);

    // The old conversation is still stored, and continues as a resumed session.
    const again = await host.resume(a.id);
    same('A resumed: its messages', again.messages.length, 2, problems);
  } finally {
    await host.close();
    await opened.close();
  }
  return problems;
}
