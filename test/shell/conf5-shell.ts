// conf5: Claude Code's command hooks as written, run as our shell hooks. A command's `timeout` in seconds
// (settings.json) and its `"type": "command"`; plain stdout on exit 0 as context on UserPromptSubmit and
// SessionStart, no opinion elsewhere, while text that opens as JSON stays a strict answer. Written against
// an Api (the sources under vitest: conf5.shell.test.ts; dist/ on Node, Deno and Bun: test/xrt/conf5.xrt.ts),
// so only type imports from host/. Each function returns what is wrong (empty when it conforms).
import type { createHost as CreateHost, createShellHook as CreateShellHook, HookInput, HostEvent, loadConfig as LoadConfig, scriptedModel as ScriptedModel, shellHooks as ShellHooks } from '../../host/index.js';

export interface ShellApi {
  createHost: typeof CreateHost;
  createShellHook: typeof CreateShellHook;
  shellHooks: typeof ShellHooks;
  scriptedModel: typeof ScriptedModel;
  loadConfig: typeof LoadConfig;
}

const base = { session_id: 's1', cwd: '/tmp', turn: 1, iteration: 0, permission_mode: 'default' } as const;
const inputs = {
  UserPromptSubmit: { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'hi' },
  SessionStart: { ...base, hook_event_name: 'SessionStart', source: 'startup' },
  PreToolUse: { ...base, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1' },
  Stop: { ...base, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' },
} as unknown as Record<string, HookInput>;

const errorOf = (run: () => unknown): { code?: string; message: string } | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return { code: (error as { code?: string }).code, message: String((error as Error).message) };
  }
};

/** `timeout` in seconds (Claude Code's settings.json), bounded and checked; `type: "command"` accepted. */
export function timeoutSeconds(api: ShellApi): string[] {
  const problems: string[] = [];
  const ms = (spec: Record<string, unknown>) => {
    try {
      return api.createShellHook({ event: 'PreToolUse', command: 'true', ...spec } as never).timeoutMs;
    } catch (error) {
      return `threw ${String((error as Error).message)}`;
    }
  };
  const want = (spec: Record<string, unknown>, expected: number) => {
    const got = ms(spec);
    if (got !== expected) problems.push(`${JSON.stringify(spec)}: timeoutMs ${String(got)}, wanted ${expected}`);
  };
  want({ type: 'command', timeout: 30 }, 30_000);
  want({ timeout: 1.5 }, 1_500);
  want({ timeout: 0.0001 }, 1); // never a 0 ms deadline that fails every call
  want({ timeout: 1e12 }, 2 ** 31 - 1); // kept at setTimeout's range, not wrapped to 1 ms
  want({}, 60_000); // Claude Code's default
  const refused = (spec: Record<string, unknown>, says: RegExp) => {
    const error = errorOf(() => api.createShellHook({ event: 'PreToolUse', command: 'true', ...spec } as never));
    if (error?.code !== 'INVALID_OPTIONS' || !says.test(error.message)) problems.push(`${JSON.stringify(spec)}: ${error ? `${String(error.code)} ${error.message}` : 'accepted'}, wanted INVALID_OPTIONS matching ${String(says)}`);
  };
  refused({ timeout: 5, timeoutMs: 5000 }, /give timeoutMs \(milliseconds\) or timeout \(seconds, Claude style\), not both.*at timeout/s);
  refused({ timeout: 0 }, /expected a positive number of seconds.*at timeout/s);
  refused({ timeout: '30' }, /expected a positive number of seconds.*at timeout/s);
  refused({ type: 'prompt' }, /expected "command".*at type/s);
  return problems;
}

/** A shell hook given `timeout` (seconds) is killed at it: TIMEOUT, and the prompt goes on (fail-open Stop). */
export async function timeoutKills(api: ShellApi): Promise<string[]> {
  const hook = api.createShellHook({ event: 'PreToolUse', command: 'sleep 30', timeout: 0.3 } as never);
  const started = performance.now();
  const result = await hook.run(inputs.PreToolUse as HookInput, { signal: new AbortController().signal } as never);
  const took = performance.now() - started;
  const problems: string[] = [];
  if (result.ok || result.failure.code !== 'TIMEOUT' || !/within 300 ms/.test(result.failure.message)) problems.push(`result ${JSON.stringify(result)}, wanted TIMEOUT within 300 ms`);
  // Slack for a loaded machine: the command alone would take 30 s.
  if (took > 15_000) problems.push(`took ${Math.round(took)} ms`);
  return problems;
}

/** A Claude Code hook entry in wasmhooks.json loads as written; a bad `timeout` names its field. */
export async function configEntry(api: ShellApi, dir: string, write: (path: string, text: string) => Promise<void>): Promise<string[]> {
  const problems: string[] = [];
  const good = `${dir}/good.json`;
  await write(good, JSON.stringify({ shellHooks: [{ event: 'PreToolUse', matcher: 'Bash', type: 'command', command: 'true', timeout: 5 }] }));
  const config = await api.loadConfig(good);
  const spec = config.shellHooks?.[0] as { timeout?: number } | undefined;
  if (spec?.timeout !== 5) problems.push(`loaded ${JSON.stringify(config.shellHooks)}`);
  const bad = `${dir}/bad.json`;
  await write(bad, JSON.stringify({ shellHooks: [{ event: 'PreToolUse', type: 'command', command: 'true', timeout: -1 }] }));
  const error = await api.loadConfig(bad).then(
    () => undefined,
    (e: unknown) => e as { code?: string; message: string },
  );
  if (error?.code !== 'INVALID_CONFIG' || !/shellHooks\[0\]\.timeout: expected a positive number of seconds/.test(error.message)) problems.push(`bad timeout: ${error ? `${String(error.code)} ${error.message}` : 'accepted'}`);
  return problems;
}

/** What exit 0 with stdout means per event, as a hook result. */
export async function plainStdout(api: ShellApi): Promise<string[]> {
  const problems: string[] = [];
  const check = async (event: string, command: string, want: unknown) => {
    const hook = api.createShellHook({ event: event as never, command, timeoutMs: 10_000 } as never);
    const got = await hook.run(inputs[event] as HookInput, { signal: new AbortController().signal } as never);
    const ok = typeof want === 'string' ? !got.ok && got.failure.code === want : JSON.stringify(got) === JSON.stringify(want);
    if (!ok) problems.push(`${event} \`${command}\`: ${JSON.stringify(got)}, wanted ${JSON.stringify(want)}`);
  };
  await check('UserPromptSubmit', `echo 'Branch: main'; echo 'Date: Monday'`, { ok: true, output: { additionalContext: 'Branch: main\nDate: Monday' } });
  await check('SessionStart', `printf 'Read CONTRIBUTING.md first.\\n'`, { ok: true, output: { additionalContext: 'Read CONTRIBUTING.md first.' } });
  // Elsewhere a log line is no opinion: never a decision, never a failure.
  await check('PreToolUse', `echo 'checking ls'`, { ok: true, output: {} });
  await check('Stop', `echo 'all done'`, { ok: true, output: {} });
  // JSON keeps its meaning; what opens as JSON and cannot be read stays BAD_OUTPUT (a cut deny must not pass).
  await check('UserPromptSubmit', `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx"}}'`, { ok: true, output: { additionalContext: 'ctx' } });
  await check('UserPromptSubmit', `echo '{"decision":"block","reason":"no keys"}'`, { ok: true, output: { decision: 'deny', reason: 'no keys' } });
  await check('PreToolUse', `echo '{"decision":"deny"'`, 'BAD_OUTPUT');
  await check('UserPromptSubmit', `echo '{"additionalContext":"x","extra":1}'`, 'BAD_OUTPUT');
  // Only an object opens an answer, as in Claude Code: a "[info] …" log line is plain text.
  await check('UserPromptSubmit', `echo '[info] on branch main'`, { ok: true, output: { additionalContext: '[info] on branch main' } });
  await check('PreToolUse', `echo '[1]'`, { ok: true, output: {} });
  return problems;
}

/** Through a whole prompt: the plain stdout of a UserPromptSubmit and a SessionStart hook reaches the model. */
export async function plainStdoutReachesModel(api: ShellApi): Promise<string[]> {
  const model = api.scriptedModel([{ text: 'ok' }]);
  const host = api.createHost({
    model,
    plugins: [
      api.shellHooks([
        { event: 'SessionStart', command: `echo 'Project rules: be brief.'`, timeoutMs: 10_000 },
        { event: 'UserPromptSubmit', command: `echo "Today is Monday."`, timeoutMs: 10_000 },
      ] as never),
    ],
  });
  const events: HostEvent[] = [];
  for await (const event of host.session().stream('what day is it?')) events.push(event);
  await host.close();
  const problems: string[] = [];
  const end = events.find((e) => e.type === 'agent.end') as { result?: { subtype?: string } } | undefined;
  if (end?.result?.subtype !== 'success') problems.push(`the prompt ended ${JSON.stringify(end)}`);
  const sent = JSON.stringify(model.requests[0]?.messages ?? []);
  for (const piece of ['Project rules: be brief.', 'Today is Monday.', 'what day is it?']) if (!sent.includes(piece)) problems.push(`the model request lacks ${piece}: ${sent}`);
  return problems;
}

/**
 * `$CLAUDE_PROJECT_DIR`, which Claude Code's hook commands name their scripts by, is set: the config's folder
 * (`baseDir`), else the session's cwd. Before, it expanded to nothing: `/.claude/hooks/guard.sh` was not
 * found (exit 127, TRAP), and a PreToolUse guard failed closed on every call.
 */
export async function projectDirVar(api: ShellApi, dir: string, script: (path: string, text: string) => Promise<void>): Promise<string[]> {
  await script(`${dir}/.claude/hooks/guard.sh`, '#!/bin/sh\necho "guarded from $CLAUDE_PROJECT_DIR" >&2\nexit 2\n');
  const command = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh';
  const problems: string[] = [];
  const signal = () => ({ signal: new AbortController().signal }) as never;
  const [fromConfig] = api.shellHooks([{ event: 'PreToolUse', type: 'command', command, timeout: 30 } as never], { baseDir: dir }).hooks();
  const a = await fromConfig!.run(inputs.PreToolUse as HookInput, signal());
  if (JSON.stringify(a) !== JSON.stringify({ ok: true, output: { decision: 'deny', reason: `guarded from ${dir}` } })) problems.push(`with baseDir: ${JSON.stringify(a)}`);
  const inCode = api.createShellHook({ event: 'PreToolUse', command: `cd / && ${command}`, timeoutMs: 30_000 });
  const b = await inCode.run({ ...inputs.PreToolUse, cwd: dir } as HookInput, signal());
  if (JSON.stringify(b) !== JSON.stringify({ ok: true, output: { decision: 'deny', reason: `guarded from ${dir}` } })) problems.push(`from the session's cwd: ${JSON.stringify(b)}`);
  return problems;
}

/**
 * Exit 2 on an event that refuses nothing (SessionStart, SessionEnd, Notification, …): Claude Code shows
 * stderr to the user only. It was a deny, which such an event cannot take: a failure on hook.end.
 */
export async function exitTwoObserveOnly(api: ShellApi): Promise<string[]> {
  const problems: string[] = [];
  const hook = api.createShellHook({ event: 'SessionStart', command: `echo 'no VPN: remote tools will fail' >&2; exit 2`, timeoutMs: 10_000 });
  const got = await hook.run(inputs.SessionStart as HookInput, { signal: new AbortController().signal } as never);
  const want = { ok: true, output: { systemMessage: 'no VPN: remote tools will fail' } };
  if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`SessionStart exit 2: ${JSON.stringify(got)}, wanted ${JSON.stringify(want)}`);
  const host = api.createHost({ model: api.scriptedModel([{ text: 'ok' }]), plugins: [api.shellHooks([{ event: 'SessionStart', command: `echo 'no VPN' >&2; exit 2`, timeoutMs: 10_000 }])] });
  const events: HostEvent[] = [];
  for await (const event of host.session().stream('hi')) events.push(event);
  await host.close();
  const end = events.find((e) => e.type === 'hook.end') as { failure?: unknown; systemMessage?: string } | undefined;
  if (end?.failure !== undefined || end?.systemMessage !== 'no VPN') problems.push(`hook.end ${JSON.stringify(end)}: wanted no failure and systemMessage "no VPN"`);
  return problems;
}
