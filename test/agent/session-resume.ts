// SessionStart `source: 'resume'`: Claude Code fires it when a previous session is continued (`claude --resume`).
// Here: the first prompt of a stored session that this host continues (a data directory reopened by a new host,
// another replica picking the session up from a shared store) fires `resume` once; the host that runs the
// session already fires nothing more (its own `host.resume`, a shared store rebuilding the session per prompt);
// a fresh session is still `startup`. Written against an Api (host/ under vitest: session-resume.test.ts;
// dist/ on Node, Deno and Bun: test/xrt/session-resume.xrt.ts), so only type imports from host/. Each function
// returns what is wrong (empty when it conforms).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { createHost as CreateHost, HookInput, HooksConfig, openStore as OpenStore, scriptedModel as ScriptedModel, shellHooks as ShellHooks } from '../../host/index.js';
import type { createServer as CreateServer } from '../../host/server/app.js';

export interface ResumeApi {
  createHost: typeof CreateHost;
  scriptedModel: typeof ScriptedModel;
  shellHooks: typeof ShellHooks;
  openStore: typeof OpenStore;
  createServer: typeof CreateServer;
}

type Options = NonNullable<Parameters<typeof CreateHost>[0]>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * SessionStart hooks under three matchers (every source, `startup`, `resume`), each a JS hook noting
 * the `source`, and shell hooks (every source, `resume`) appending their stdin to a file, as a
 * Claude Code command hook reads it.
 */
class Starts {
  readonly js: Record<string, string[]> = { all: [], startup: [], resume: [] };

  constructor(private readonly dir: string) {}

  options(api: ResumeApi): Pick<Options, 'hooks' | 'plugins'> {
    const note = (label: string) => async (input: HookInput) => {
      if (input.hook_event_name === 'SessionStart') this.js[label]!.push(input.source);
      return {};
    };
    const hooks: HooksConfig = {
      SessionStart: [
        { matcher: '', hooks: [note('all')] },
        { matcher: 'startup', hooks: [note('startup')] },
        { matcher: 'resume', hooks: [note('resume')] },
      ],
    };
    const shell = (label: string, matcher: string) => {
      const file = join(this.dir, `${label}.json`);
      return { event: 'SessionStart' as const, matcher, command: `cat >> '${file}'; echo >> '${file}'`, timeoutMs: 10_000, name: `shell:${label}` };
    };
    return { hooks, plugins: [api.shellHooks([shell('all', ''), shell('resume', 'resume')])] };
  }

  /** What the shell hook of `label` read on stdin, one input a line. */
  async stdin(label: string): Promise<string[]> {
    const text = await readFile(join(this.dir, `${label}.json`), 'utf8').catch(() => '');
    return text.split('\n').filter((line) => line !== '');
  }
}

const same = (what: string, got: unknown, want: unknown, problems: string[]) => {
  if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${what}: got ${JSON.stringify(got)}, wanted ${JSON.stringify(want)}`);
};

const fine = (api: ResumeApi) => api.scriptedModel({ rules: [{ when: () => true, reply: { text: 'fine' } }] });

/**
 * A data directory: host 1 runs a session (two prompts, then its own `host.resume` of it: one `startup`);
 * host 2, on the directory reopened as after a restart, resumes it: its first prompt fires `resume`, its
 * second and a second `resume()` nothing; a fresh session there is `startup`.
 */
export async function dataDirReopened(api: ResumeApi, dir: string): Promise<string[]> {
  const problems: string[] = [];
  const dataDir = join(dir, 'data');
  const starts = new Starts(dir);
  const options = (store: Options['store']): Options => ({ model: fine(api), store, cwd: '/proj', ...starts.options(api) });

  const first = await api.openStore({ kind: 'file', dataDir });
  let id: string;
  let lastSeqOnOne = 0;
  let firstSeqOnTwo = 0;
  const hostTwoStarts: number[] = [];
  try {
    const host = api.createHost(options(first.store));
    const session = host.session();
    id = session.id;
    session.subscribe((event) => {
      lastSeqOnOne = event.seq;
    });
    await session.prompt('one');
    await session.prompt('two');
    // The same host continuing its own session: no second start.
    await (await host.resume(id)).prompt('three');
    same('host 1', starts.js.all, ['startup'], problems);
    await host.close();
  } finally {
    await first.close();
  }

  const second = await api.openStore({ kind: 'file', dataDir });
  try {
    const host = api.createHost(options(second.store));
    const resumed = await host.resume(id);
    resumed.subscribe((event) => {
      firstSeqOnTwo ||= event.seq;
      if (event.type === 'agent.start') hostTwoStarts.push(event.turn);
    });
    await resumed.prompt('four');
    await resumed.prompt('five');
    await (await host.resume(id)).prompt('six');
    same('after host 2 resumed', starts.js.all, ['startup', 'resume'], problems);
    same('messages host 2 saw', resumed.messages.length, 10, problems);
    await host.session().prompt('fresh');
    await host.close();
    same('every source', starts.js.all, ['startup', 'resume', 'startup'], problems);
    same('matcher startup', starts.js.startup, ['startup', 'startup'], problems);
    same('matcher resume', starts.js.resume, ['resume'], problems);
    // The session's record counts on across the restart: prompts 4, 5 (and 6; before session 38 a library session had no
    // record, so host 2 numbered its prompts 1, 2, 3 again and restarted `seq` at 1).
    same('prompt numbers on host 2', hostTwoStarts, [4, 5], problems);
    if (!(firstSeqOnTwo > lastSeqOnOne)) problems.push(`seq on host 2 starts at ${firstSeqOnTwo}, not past host 1's last ${lastSeqOnOne}`);
    same('prompts in the record', (await second.store.get(id))?.prompts, 6, problems);
    // A ported command hook reads exactly Claude Code's input (keys in order).
    const want = {
      session_id: id,
      cwd: '/proj',
      turn: 4,
      iteration: 0,
      permission_mode: 'default',
      transcript_path: second.store.transcriptPath(id),
      hook_event_name: 'SessionStart',
      source: 'resume',
    };
    same('shell hook, matcher resume', await starts.stdin('resume'), [JSON.stringify(want)], problems);
    same('shell hook, every source', (await starts.stdin('all')).map((l) => (JSON.parse(l) as { source: string }).source), ['startup', 'resume', 'startup'], problems);
  } finally {
    await second.close();
  }
  return problems;
}

/**
 * Two replicas (two servers, two hosts) on one shared store, which rebuilds the session for each prompt:
 * prompts 1, 2 on A, 3, 4 on B, 5 on A. A starts it (`startup`), B continues it (`resume`, once); nothing
 * else, though every prompt ran on a session object rebuilt from the store.
 */
export async function replicasOnSharedStore(api: ResumeApi): Promise<string[]> {
  const problems: string[] = [];
  const { store } = await api.openStore({ kind: 'memory' });
  // A store other processes share, as Redis is: the session object is dropped after each prompt.
  Object.defineProperty(store, 'shared', { value: true });
  const seen: string[] = [];
  const replica = (name: string) => {
    const note = async (input: HookInput) => (input.hook_event_name === 'SessionStart' && seen.push(`${name}:${input.source}:${input.turn}`), {});
    const host = api.createHost({ model: fine(api), hooks: { SessionStart: [{ hooks: [note] }] } });
    return api.createServer(host, { store, replica: name, leaseMs: 2_000 });
  };
  const servers = { a: replica('a'), b: replica('b') };
  const call = async (on: keyof typeof servers, method: string, path: string, body?: unknown) => {
    const init: RequestInit = { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
    const res = await servers[on].app.request(path, init);
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  try {
    const id = (await call('a', 'POST', '/session', {})).json.id as string;
    for (const [n, on] of (['a', 'a', 'b', 'b', 'a'] as const).entries()) {
      const posted = await call(on, 'POST', `/session/${id}/prompt`, { prompt: `prompt ${n + 1}` });
      if (posted.status !== 202) problems.push(`prompt ${n + 1} on ${on}: ${posted.status} ${JSON.stringify(posted.json)}`);
      // Over when its result is stored and its lease released: the next one may run on either replica.
      for (let i = 0; i < 1000; i++) {
        const view = (await call(on, 'GET', `/session/${id}`)).json;
        if (view.running === false && view.prompts === n + 1) break;
        await sleep(5);
      }
    }
    same('SessionStart per replica', seen, ['a:startup:1', 'b:resume:3'], problems);
  } finally {
    await Promise.all([servers.a.close(), servers.b.close()]);
  }
  return problems;
}

/**
 * A manual `compact()` before a continued session's first prompt: the session's own start (`resume`) comes
 * first, then the compaction's hooks and its `compact` start; the first prompt fires none again. A
 * compaction with nothing to do (an empty conversation, nothing older than the kept turns) runs no hook, so
 * the first prompt still fires the session's start. Before session 39 the compaction's `compact` came first.
 */
export async function compactBeforeFirstPrompt(api: ResumeApi): Promise<string[]> {
  const problems: string[] = [];
  const seen: string[] = [];
  const note = async (input: HookInput) => {
    if (input.hook_event_name === 'SessionStart') seen.push(`start:${input.source}`);
    else if (input.hook_event_name === 'PreCompact') seen.push(`pre:${input.trigger}`);
    return {};
  };
  const host = api.createHost({
    model: fine(api),
    hooks: { SessionStart: [{ hooks: [note] }], PreCompact: [{ hooks: [note] }] },
    compactor: async (request) => [{ role: 'user', content: 'summary' }, ...request.messages.slice(-2)],
  });
  const turns = (n: number) =>
    Array.from({ length: n }, (_, i) => [
      { role: 'user' as const, content: `q${i}` },
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: `a${i}` }] },
    ]).flat();
  try {
    const resumed = host.session({ sessionId: 'stored', history: turns(3) });
    const result = await resumed.compact();
    if (!result.compacted) problems.push(`the compaction did not run: ${JSON.stringify(result)}`);
    await resumed.prompt('go');
    same('continued session, compacted first', seen.splice(0), ['start:resume', 'pre:manual', 'start:compact'], problems);

    const empty = host.session();
    same('fresh session: compact() of nothing', await empty.compact(), { compacted: false, reason: 'the conversation is empty' }, problems);
    await empty.prompt('go');
    same('fresh session, after compact() of nothing', seen.splice(0), ['start:startup'], problems);
  } finally {
    await host.close();
  }
  // The default compactor with no model turn to summarise (a stored prompt the model never answered): no hook
  // runs, the first prompt resumes.
  const plain = api.createHost({ model: fine(api), hooks: { SessionStart: [{ hooks: [note] }], PreCompact: [{ hooks: [note] }] } });
  try {
    const resumed = plain.session({ sessionId: 'short', history: [{ role: 'user', content: 'unanswered' }] });
    const result = await resumed.compact();
    if (result.compacted) problems.push('the default compactor compacted a conversation with no model turn');
    await resumed.prompt('go');
    same('continued session, nothing to compact', seen.splice(0), ['start:resume'], problems);
  } finally {
    await plain.close();
  }
  return problems;
}
