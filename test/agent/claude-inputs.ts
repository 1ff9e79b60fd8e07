// Claude Code's hook inputs, as a ported command hook (a shell hook reading JSON on stdin) and a JS hook
// receive them: the exact JSON text, keys in order, for the events whose fields we changed to match
// Claude Code's contract. SessionEnd `reason` in Claude's words (`other`, or what `session.close({ reason })`
// says), Notification `title`, SubagentStop `last_assistant_message`. Written against an Api (the sources
// under vitest: claude-inputs.test.ts; dist/ on Node, Deno and Bun: test/xrt/claude-inputs.xrt.ts), so only
// type imports from host/. Each function returns what is wrong (empty when it conforms).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { createHost as CreateHost, HookEventName, HookInput, HooksConfig } from '../../host/index.js';
import type { HostApi } from '../fixtures/scenario-kit.js';

export type InputsApi = Pick<HostApi, 'createHost' | 'scriptedModel' | 'shellHooks' | 'tool' | 'z'>;

type Options = Parameters<typeof CreateHost>[0];

const SESSION = 'claude-inputs';
const common = (turn: number, iteration: number) => ({ session_id: SESSION, cwd: '/proj', turn, iteration, permission_mode: 'default' });

const tools = (api: InputsApi) => [
  api.tool('Read', 'Read a file', api.z.object({ file_path: api.z.string() }), ({ file_path }) => `contents of ${file_path}`),
  api.tool('Write', 'Write a file', api.z.object({ file_path: api.z.string(), content: api.z.string() }), ({ content }) => `wrote ${content.length} bytes`),
];

/**
 * One event's inputs, seen twice: by a JS hook and by a shell hook that writes its stdin to a file
 * (`dir/<label>.json`), as a Claude Code command hook would read it. Each `matcher` gets one of each.
 */
class Recorder {
  readonly js: Record<string, string[]> = {};
  private readonly shell: Array<{ event: HookEventName; matcher: string; command: string; timeoutMs: number; name: string }> = [];
  private readonly hooks: HooksConfig = {};
  private readonly files: string[] = [];

  constructor(private readonly dir: string) {}

  on(event: HookEventName, label: string, matcher = ''): this {
    const seen: string[] = (this.js[label] = []);
    (this.hooks[event] ??= []).push({ matcher, name: label, hooks: [async (input: HookInput) => (seen.push(JSON.stringify(input)), {})] });
    const file = join(this.dir, `${label}.json`);
    this.files.push(file);
    this.shell.push({ event, matcher, command: `cat >> '${file}'; echo >> '${file}'`, timeoutMs: 10_000, name: `shell:${label}` });
    return this;
  }

  options(api: InputsApi): Options {
    return { hooks: this.hooks, plugins: [api.shellHooks(this.shell)] };
  }

  /** What the shell hook of `label` read on stdin, one input a line (none when it never ran). */
  async stdin(label: string): Promise<string[]> {
    const text = await readFile(join(this.dir, `${label}.json`), 'utf8').catch(() => '');
    return text.split('\n').filter((line) => line !== '');
  }
}

/** Both hooks of `label` got exactly `want` (JSON text, keys in order), once each. */
async function expectInputs(r: Recorder, label: string, want: unknown[], problems: string[]): Promise<void> {
  const wanted = want.map((w) => JSON.stringify(w));
  const js = r.js[label] ?? [];
  const shell = await r.stdin(label);
  if (JSON.stringify(js) !== JSON.stringify(wanted)) problems.push(`${label} (JS) got ${JSON.stringify(js)}, wanted ${JSON.stringify(wanted)}`);
  if (JSON.stringify(shell) !== JSON.stringify(wanted)) problems.push(`${label} (shell) got ${JSON.stringify(shell)}, wanted ${JSON.stringify(wanted)}`);
}

/**
 * SessionEnd `reason` is one of Claude Code's: `other` when the host closes a session, the app's own with
 * `session.close({ reason })`; matchers test it; a reason Claude Code never sends is INVALID_OPTIONS and
 * leaves the session open.
 */
export async function sessionEndReason(api: InputsApi, dir: string): Promise<string[]> {
  const problems: string[] = [];
  const r = new Recorder(dir).on('SessionEnd', 'end-all').on('SessionEnd', 'end-logout', 'logout').on('SessionEnd', 'end-clear', 'clear');
  const host = api.createHost({ model: api.scriptedModel([{ text: 'one' }, { text: 'two' }]), cwd: '/proj', ...r.options(api) });
  const closed = host.session({ sessionId: SESSION });
  await closed.prompt('hi');
  await closed.close();
  const loggedOut = host.session({ sessionId: SESSION });
  await loggedOut.prompt('hi');
  let refused = 'accepted';
  try {
    await loggedOut.close({ reason: 'closed' } as never);
  } catch (error) {
    refused = `${String((error as { code?: string }).code)} ${String((error as Error).message)}`;
  }
  if (!/^INVALID_OPTIONS .*reason must be one of clear, resume, logout, prompt_input_exit, bypass_permissions_disabled, other/.test(refused)) {
    problems.push(`close({ reason: 'closed' }): ${refused}`);
  }
  await loggedOut.close({ reason: 'logout' });
  await host.close();
  const end = (reason: string) => ({ ...common(1, 0), hook_event_name: 'SessionEnd', reason });
  await expectInputs(r, 'end-all', [end('other'), end('logout')], problems);
  await expectInputs(r, 'end-logout', [end('logout')], problems);
  await expectInputs(r, 'end-clear', [], problems);
  return problems;
}

/** Notification before a permission question: Claude Code's `message`, `title` and `notification_type` (and our `level`). */
export async function notificationInput(api: InputsApi, dir: string): Promise<string[]> {
  const problems: string[] = [];
  const r = new Recorder(dir).on('Notification', 'notify', 'permission_prompt');
  const model = api.scriptedModel([{ toolCalls: [{ name: 'Write', id: 'w1', input: { file_path: 'a.txt', content: 'x' } }] }, { text: 'done' }]);
  const host = api.createHost({ model, tools: tools(api), cwd: '/proj', canUseTool: async () => ({ behavior: 'allow' }), ...r.options(api) });
  await host.session({ sessionId: SESSION }).prompt('write it');
  await host.close();
  const want = { ...common(1, 1), hook_event_name: 'Notification', message: 'Write needs permission', title: 'Permission needed', level: 'info', notification_type: 'permission_prompt' };
  await expectInputs(r, 'notify', [want], problems);
  return problems;
}

/**
 * SubagentStop `last_assistant_message`: the sub-agent's own last text, beside `result` (what the agent call
 * returns: the same text on success, an error text when it ran out of model calls). No
 * `agent_transcript_path`: a sub-agent's conversation is never written to a file.
 */
export async function subagentStopInput(api: InputsApi, dir: string): Promise<string[]> {
  const problems: string[] = [];
  const r = new Recorder(dir).on('SubagentStop', 'substop');
  const agents = {
    researcher: { description: 'Researches', systemPrompt: 'You research.', tools: ['Read'] },
    hasty: { description: 'Gives up', systemPrompt: 'You hurry.', tools: ['Read'], maxTurns: 1 },
  };
  const call = (id: string, type: string) => ({ toolCalls: [{ name: 'agent', id, input: { subagent_type: type, prompt: 'look' } }] });
  const model = api.scriptedModel([
    call('a1', 'researcher'),
    { text: 'Reading it.', toolCalls: [{ name: 'Read', id: 'r1', input: { file_path: 'a.txt' } }] },
    { text: 'It says hello.' },
    call('a2', 'hasty'),
    { text: 'Still looking.', toolCalls: [{ name: 'Read', id: 'r2', input: { file_path: 'b.txt' } }] },
    { text: 'parent done' },
  ]);
  const host = api.createHost({ model, tools: tools(api), cwd: '/proj', permissionMode: 'bypassPermissions', agents, ...r.options(api) });
  await host.session({ sessionId: SESSION }).prompt('go');
  await host.close();
  const stop = (iteration: number, type: string, id: string, result: string, last: string) => ({
    ...common(1, iteration),
    permission_mode: 'bypassPermissions',
    agent_id: `${type}@${id}`,
    agent_type: type,
    prompt: 'look',
    hook_event_name: 'SubagentStop',
    result,
    stop_hook_active: false,
    last_assistant_message: last,
  });
  await expectInputs(
    r,
    'substop',
    [
      stop(1, 'researcher', 'a1', 'It says hello.', 'It says hello.'),
      stop(2, 'hasty', 'a2', 'sub-agent "hasty" did not finish within its 1 model calls (maxTurns); last text: Still looking.', 'Still looking.'),
    ],
    problems,
  );
  return problems;
}
