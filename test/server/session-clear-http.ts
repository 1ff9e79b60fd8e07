// `POST /session/:id/clear`, Claude Code's `/clear` over HTTP: a new session (201) with the old one's
// options and not its title, `clearedFrom` in its view and its `session.created`; the old one ends
// (SessionEnd `clear`) and stays stored; the new one's first prompt fires SessionStart `clear` on
// whichever replica builds it (the record keeps `clearedFrom`). A clear refused (unknown session,
// maxSessions) ends nothing. Written against an Api (host/ under vitest: session-clear-http.test.ts;
// dist/ on Node, Deno and Bun: test/xrt/session-clear-http.xrt.ts). Returns what is wrong.
import type { createHost as CreateHost, HookInput, scriptedModel as ScriptedModel } from '../../host/index.js';
import type { createServer as CreateServer } from '../../host/server/index.js';
import type { SessionStore } from '../../host/store/types.js';

export interface ClearHttpApi {
  createHost: typeof CreateHost;
  scriptedModel: typeof ScriptedModel;
  createServer: typeof CreateServer;
}

type Server = ReturnType<typeof CreateServer>;

const same = (what: string, got: unknown, want: unknown, problems: string[]) => {
  if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${what}: got ${JSON.stringify(got)}, wanted ${JSON.stringify(want)}`);
};

async function call(server: Server, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const init: RequestInit = body === undefined ? { method } : { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
  const res = await server.app.request(path, init);
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** Posts a prompt and waits for its end (the session idle, its prompt counted). */
async function prompt(server: Server, id: string, text: string, problems: string[]): Promise<void> {
  const posted = await call(server, 'POST', `/session/${id}/prompt`, { prompt: text });
  if (posted.status !== 202) return void problems.push(`prompt "${text}": ${posted.status} ${JSON.stringify(posted.json)}`);
  for (let i = 0; i < 1000; i++) {
    const view = (await call(server, 'GET', `/session/${id}`)).json;
    if (view.running === false && view.lastResult) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  problems.push(`prompt "${text}" did not end`);
}

/**
 * The scenario, on `store`. `replicas`: two servers on it (a shared store): the clear is asked of the
 * second, the prompts of the first, so each session object is rebuilt from its record.
 */
export async function clearOverHttp(api: ClearHttpApi, store: SessionStore, replicas = false): Promise<string[]> {
  const problems: string[] = [];
  const seen: string[] = [];
  const ids: Record<string, string> = {};
  const name = (id: string) => Object.keys(ids).find((k) => ids[k] === id) ?? id;
  const note = async (input: HookInput) => {
    if (input.hook_event_name === 'SessionStart') seen.push(`start:${input.source}:${name(input.session_id)}:${input.permission_mode}`);
    if (input.hook_event_name === 'SessionEnd') seen.push(`end:${input.reason}:${name(input.session_id)}`);
    return {};
  };
  const host = () =>
    api.createHost({
      model: api.scriptedModel({ rules: [{ when: () => true, reply: { text: 'fine' } }] }),
      hooks: { SessionStart: [{ hooks: [note] }], SessionEnd: [{ hooks: [note] }] },
    });
  const one = api.createServer(host(), { store, maxSessions: 3, replica: 'one' });
  const two = replicas ? api.createServer(host(), { store, maxSessions: 3, replica: 'two' }) : one;
  // What the clearing replica announces (the hub's own emit, watched).
  const created: unknown[] = [];
  const emit = two.hub.emit.bind(two.hub);
  two.hub.emit = ((type: string, data: unknown) => {
    if (type === 'session.created') created.push(data);
    return emit(type as never, data as never);
  }) as typeof emit;
  try {
    const a = await call(one, 'POST', '/session', { title: 'first', permissionMode: 'acceptEdits' });
    ids.A = a.json.id as string;
    await prompt(one, ids.A, 'one', problems);
    same('after the first prompt', seen.splice(0), ['start:startup:A:acceptEdits'], problems);

    same('clear of an unknown session', (await call(two, 'POST', '/session/nope/clear', {})).status, 404, problems);
    const b = await call(two, 'POST', `/session/${ids.A}/clear`, {});
    same('clear status', b.status, 201, problems);
    ids.B = b.json.id as string;
    if (!ids.B || ids.B === ids.A) problems.push(`the cleared session's id: ${ids.B}`);
    same('the new view', { ...b.json, id: 'B', createdAt: 0 }, { id: 'B', state: 'idle', running: false, createdAt: 0, prompts: 0, pendingControlRequests: 0, clearedFrom: ids.A, permissionMode: 'acceptEdits' }, problems);
    same('after the clear', seen.splice(0), ['end:clear:A'], problems);
    same('session.created', created.filter((e) => (e as { sessionId: string }).sessionId === ids.B), [{ sessionId: ids.B, clearedFrom: ids.A }], problems);
    same('GET the new session', (await call(one, 'GET', `/session/${ids.B}`)).json.clearedFrom, ids.A, problems);
    same('messages of the new session', (await call(one, 'GET', `/session/${ids.B}/messages`)).json.total, 0, problems);

    await prompt(one, ids.B, 'two', problems);
    same('the new session\u2019s first prompt', seen.splice(0), ['start:clear:B:acceptEdits'], problems);
    await prompt(one, ids.B, 'three', problems);
    same('its second prompt', seen.splice(0), [], problems);

    // The old one stays stored, and a prompt continues it.
    same('the old one\u2019s messages', (await call(one, 'GET', `/session/${ids.A}/messages`)).json.total, 2, problems);
    await prompt(one, ids.A, 'again', problems);
    same('the old one\u2019s messages after another prompt', (await call(one, 'GET', `/session/${ids.A}/messages`)).json.total, 4, problems);
    seen.splice(0);

    // Full (A, B and C held, maxSessions 3): refused, and nothing ended.
    ids.C = (await call(one, 'POST', '/session', {})).json.id as string;
    const full = await call(two, 'POST', `/session/${ids.A}/clear`, {});
    same('clear past maxSessions', [full.status, (full.json.error as { code?: string } | undefined)?.code], [429, 'too_many_sessions'], problems);
    same('after the refused clear', seen.splice(0), [], problems);
  } finally {
    await one.close();
    if (two !== one) await two.close();
  }
  return problems;
}
