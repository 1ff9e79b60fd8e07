// conf7: Claude Code's hook contract for JS and shell (command) hooks written in its JSON format. A
// PermissionRequest `continue: false` or deny with `interrupt` ends the turn; `updatedPermissions` is checked
// and its session allow rule applied; the input offers `permission_suggestions`; SubagentStop has
// `stop_hook_active`; matchers on non-tool events (SessionStart `source`, …); PostToolUse
// `updatedToolOutput`/`updatedMCPToolOutput`. Written against an Api (the sources under vitest:
// conf7.claude-hooks.test.ts; dist/ on Node, Deno and Bun: test/xrt/conf7.xrt.ts), so only type imports from
// host/. Each function returns what is wrong (empty when it conforms).
import type { z as Zod } from 'zod';
import type { createHost as CreateHost, HookCallback, HookCallbackOutput, HookInput, HostEvent, scriptedModel as ScriptedModel, shellHooks as ShellHooks, tool as Tool } from '../../host/index.js';

export interface Conf7Api {
  createHost: typeof CreateHost;
  scriptedModel: typeof ScriptedModel;
  shellHooks: typeof ShellHooks;
  tool: typeof Tool;
  z: typeof Zod;
}

type Host = ReturnType<typeof CreateHost>;
type Options = Parameters<typeof CreateHost>[0];

const tools = (api: Conf7Api) => [
  api.tool('Read', 'Read a file', api.z.object({ file_path: api.z.string() }), ({ file_path }) => `contents of ${file_path}`),
  api.tool('Write', 'Write a file', api.z.object({ file_path: api.z.string(), content: api.z.string() }), ({ content }) => `wrote ${content.length} bytes`),
  api.tool('mcp__fake__echo', 'An MCP-named tool', api.z.object({ text: api.z.string() }), ({ text }) => `secret: ${text}`),
];

const write = (id: string) => ({ name: 'Write', id, input: { file_path: `${id}.txt`, content: 'x' } });

async function run(host: Host, prompt: string, session = host.session()): Promise<HostEvent[]> {
  const events: HostEvent[] = [];
  for await (const e of session.stream(prompt)) events.push(e);
  return events;
}

const of = <T extends HostEvent['type']>(events: HostEvent[], type: T) => events.filter((e) => e.type === type) as Array<Extract<HostEvent, { type: T }>>;
const endOf = (events: HostEvent[]) => of(events, 'agent.end')[0]?.result;
// Unchecked: some answers here are wrong on purpose (a bad updatedPermissions).
const permissionAnswer = (decision: unknown) => ({ hookSpecificOutput: { hookEventName: 'PermissionRequest' as const, decision } }) as HookCallbackOutput;

/** 1. PermissionRequest `continue: false` (JS) and a deny with `interrupt: true` (shell) end the turn: stoppedBy, the batch's calls `stopped`. */
export async function permissionStop(api: Conf7Api): Promise<string[]> {
  const problems: string[] = [];
  const cases: Array<[string, Options]> = [
    ['JS continue:false', { hooks: { PermissionRequest: [{ hooks: [async () => ({ continue: false, stopReason: 'enough' })] }] } }],
    [
      'shell interrupt',
      {
        plugins: [
          api.shellHooks([
            { event: 'PermissionRequest', matcher: 'Write', timeoutMs: 10_000, command: `echo '${JSON.stringify(permissionAnswer({ behavior: 'deny', message: 'enough', interrupt: true }))}'` },
          ]),
        ],
      },
    ],
  ];
  for (const [label, options] of cases) {
    let asked = 0;
    const model = api.scriptedModel([{ toolCalls: [write('w1'), write('w2')] }, { text: 'not reached' }]);
    const host = api.createHost({ model, tools: tools(api), cwd: '/proj', canUseTool: async () => (asked++, { behavior: 'allow' }), ...options });
    const events = await run(host, 'write twice');
    await host.close();
    const result = endOf(events);
    if (result?.subtype !== 'success' || result.stoppedBy?.event !== 'PermissionRequest' || result.stoppedBy.reason !== 'enough') problems.push(`${label}: result ${JSON.stringify(result)}`);
    const denied = of(events, 'tool.denied').map((d) => `${d.toolUseId}:${d.source}`);
    // The asked call as its permission.resolved says (the event grammar); the rest of the batch `stopped`.
    if (JSON.stringify(denied) !== '["w1:permission-hook","w2:stopped"]') problems.push(`${label}: denials ${JSON.stringify(denied)}`);
    if (asked !== 0) problems.push(`${label}: canUseTool was asked ${asked} times`);
    if (model.requests.length !== 1) problems.push(`${label}: ${model.requests.length} model calls, wanted 1`);
  }
  return problems;
}

/**
 * 2 + 3. `updatedPermissions`: an addRules allow of a whole tool is a session allow rule (the next call is not asked);
 * other shapes are accepted, not applied; a bad shape is BAD_OUTPUT naming it. The input offers `permission_suggestions`.
 */
export async function updatedPermissions(api: Conf7Api): Promise<string[]> {
  const problems: string[] = [];
  const attempt = async (updates: unknown) => {
    const inputs: HookInput[] = [];
    const hook: HookCallback = async (input) => (inputs.push(input), permissionAnswer({ behavior: 'allow', updatedPermissions: updates }));
    const model = api.scriptedModel([{ toolCalls: [write('w1')] }, { toolCalls: [write('w2')] }, { text: 'done' }]);
    const host = api.createHost({ model, tools: tools(api), cwd: '/proj', hooks: { PermissionRequest: [{ hooks: [hook] }] } });
    const events = await run(host, 'write');
    await host.close();
    return { inputs, events, resolved: of(events, 'permission.resolved').map((r) => `${r.toolUseId}:${r.behavior}:${r.source}${r.always ? ':always' : ''}`) };
  };

  const applied = await attempt([{ type: 'addRules', rules: [{ toolName: 'Write' }], behavior: 'allow', destination: 'session' }]);
  if (JSON.stringify(applied.resolved) !== '["w1:allow:permission-hook:always","w2:allow:session"]') problems.push(`applied: ${JSON.stringify(applied.resolved)}`);
  const suggested = applied.inputs[0] && 'permission_suggestions' in applied.inputs[0] ? applied.inputs[0].permission_suggestions : undefined;
  const offer = [{ type: 'addRules', rules: [{ toolName: 'Write' }], behavior: 'allow', destination: 'session' }];
  if (JSON.stringify(suggested) !== JSON.stringify(offer)) problems.push(`permission_suggestions ${JSON.stringify(suggested)}`);

  const others = await attempt([
    { type: 'addRules', rules: [{ toolName: 'Write', ruleContent: '*.txt' }], behavior: 'allow', destination: 'localSettings' },
    { type: 'addRules', rules: [{ toolName: 'Read' }], behavior: 'deny', destination: 'session' },
    { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
    { type: 'addDirectories', directories: ['/tmp'], destination: 'session' },
  ]);
  if (JSON.stringify(others.resolved) !== '["w1:allow:permission-hook","w2:allow:permission-hook"]') problems.push(`not applied: ${JSON.stringify(others.resolved)}`);
  if (others.inputs.length !== 2) problems.push(`not applied: the hook ran ${others.inputs.length} times, wanted 2`);

  const bad = await attempt([{ type: 'addRules', rules: 'Write', behavior: 'allow', destination: 'session' }]);
  const failure = of(bad.events, 'hook.end').find((e) => e.event === 'PermissionRequest')?.failure;
  if (failure?.code !== 'BAD_OUTPUT' || !/updatedPermissions/.test(failure.message)) problems.push(`bad shape: ${JSON.stringify(failure)}`);
  if (!bad.resolved[0]?.startsWith('w1:deny:permission-hook')) problems.push(`bad shape: ${JSON.stringify(bad.resolved)}`);
  return problems;
}

const researcher = { description: 'Researches', systemPrompt: 'You research.', tools: ['Read'] };
const callAgent = { toolCalls: [{ name: 'agent', id: 'a1', input: { subagent_type: 'researcher', prompt: 'look' } }] };

/** 4. SubagentStop `stop_hook_active`: false at first, true once a SubagentStop block sent the sub-agent back (JS and shell). */
export async function subagentStopActive(api: Conf7Api): Promise<string[]> {
  const problems: string[] = [];
  const seen: unknown[] = [];
  const js: HookCallback = async (input) => {
    const active = input.hook_event_name === 'SubagentStop' ? input.stop_hook_active : 'absent';
    seen.push(active);
    return active === true ? {} : { decision: 'block', reason: 'again' };
  };
  // The shell hook blocks (exit 2) until its input says a SubagentStop block is already in effect.
  const shell = `if grep -q '"stop_hook_active":true'; then exit 0; else echo again >&2; exit 2; fi`;
  for (const [label, options] of [
    ['JS', { hooks: { SubagentStop: [{ hooks: [js] }] } }],
    ['shell', { plugins: [api.shellHooks([{ event: 'SubagentStop', command: shell, timeoutMs: 10_000 }])] }],
  ] as Array<[string, Options]>) {
    const model = api.scriptedModel([callAgent, { text: 'first' }, { text: 'second' }, { text: 'parent done' }, { text: 'spare' }, { text: 'spare' }]);
    const host = api.createHost({ model, tools: tools(api), cwd: '/proj', permissionMode: 'bypassPermissions', agents: { researcher }, stopHookCap: 3, ...options });
    const events = await run(host, 'go');
    await host.close();
    const output = of(events, 'tool.output').find((o) => o.name === 'agent')?.content;
    if (output !== 'second' || endOf(events)?.text !== 'parent done') problems.push(`${label}: agent output ${JSON.stringify(output)}, end ${JSON.stringify(endOf(events)?.text)}`);
  }
  if (JSON.stringify(seen) !== '[false,true]') problems.push(`JS saw stop_hook_active ${JSON.stringify(seen)}`);
  return problems;
}

/**
 * 5. Matchers on non-tool events, JS and shell alike: SessionStart `source` (the input's field, no `reason`), SessionEnd
 * `reason`, Notification `notification_type`, SubagentStart/SubagentStop `agent_type`, PreCompact/PostCompact `trigger`.
 */
export async function nonToolMatchers(api: Conf7Api): Promise<string[]> {
  const fired: string[] = [];
  const inputs: HookInput[] = [];
  const on = (label: string, matcher: string) => ({ matcher, name: label, hooks: [async (input: HookInput) => (fired.push(label), inputs.push(input), {})] });
  const model = api.scriptedModel([callAgent, { text: 'sub done' }, { toolCalls: [write('w1')] }, { text: 'first done' }, { text: 'second done' }]);
  const host = api.createHost({
    model,
    tools: tools(api),
    cwd: '/proj',
    agents: { researcher },
    allowedTools: ['agent', 'Read'],
    canUseTool: async () => ({ behavior: 'allow' }),
    keepTurns: 1,
    compactor: async () => [{ role: 'user', content: 'summary' }],
    hooks: {
      SessionStart: [on('start:startup', 'startup'), on('start:compact', 'resume|clear|compact')],
      SessionEnd: [on('end:clear', 'clear'), on('end:other', 'logout|other')],
      Notification: [on('notify:permission', 'permission_prompt'), on('notify:idle', 'idle_prompt')],
      SubagentStart: [on('substart:researcher', 'researcher'), on('substart:other', 'Explore')],
      SubagentStop: [on('substop:researcher', 'researcher'), on('substop:other', 'Explore')],
      PreCompact: [on('precompact:manual', 'manual'), on('precompact:auto', 'auto')],
      PostCompact: [on('postcompact:manual', 'manual'), on('postcompact:auto', 'auto')],
    },
    plugins: [
      api.shellHooks([
        { event: 'SessionStart', matcher: 'startup', command: 'echo "shell startup context"', timeoutMs: 10_000, name: 'shell:startup' },
        { event: 'SessionStart', matcher: 'resume', command: 'echo "shell resume context"', timeoutMs: 10_000, name: 'shell:resume' },
      ]),
    ],
  });
  const session = host.session();
  const events = [...(await run(host, 'first', session)), ...(await run(host, 'second', session))];
  await session.compact();
  await session.close();
  await host.close();
  const problems: string[] = [];
  const want = ['start:startup', 'substart:researcher', 'substop:researcher', 'notify:permission', 'precompact:manual', 'postcompact:manual', 'start:compact', 'end:other'];
  if (JSON.stringify(fired) !== JSON.stringify(want)) problems.push(`fired ${JSON.stringify(fired)}, wanted ${JSON.stringify(want)}`);
  const start = inputs[0] as Record<string, unknown> | undefined;
  if (start?.source !== 'startup' || 'reason' in start) problems.push(`SessionStart input ${JSON.stringify(start)}`);
  const notify = inputs.find((i) => i.hook_event_name === 'Notification') as Record<string, unknown> | undefined;
  if (notify?.notification_type !== 'permission_prompt') problems.push(`Notification input ${JSON.stringify(notify)}`);
  const shellRan = of(events, 'hook.end').filter((e) => e.event === 'SessionStart' && e.kind === 'shell').map((e) => e.hookName);
  if (JSON.stringify(shellRan) !== '["shell:startup"]') problems.push(`shell SessionStart hooks that ran: ${JSON.stringify(shellRan)}`);
  const sent = JSON.stringify(model.requests[0]?.messages ?? []);
  if (!sent.includes('shell startup context') || sent.includes('shell resume context')) problems.push(`first model call: ${sent}`);
  return problems;
}

/**
 * 6. PostToolUse `updatedToolOutput` (any tool; JS and shell) and `updatedMCPToolOutput` (MCP tools only: content
 * blocks read as the MCP client reads them) rewrite what the model and `tool.output` get; on a non-MCP tool
 * `updatedMCPToolOutput` is BAD_OUTPUT (the output stands: PostToolUse fails open).
 */
export async function rewrittenToolOutput(api: Conf7Api): Promise<string[]> {
  const post = (specific: Record<string, unknown>) => async () => ({ hookSpecificOutput: { hookEventName: 'PostToolUse' as const, ...specific } });
  const model = api.scriptedModel([
    { toolCalls: [{ name: 'Read', id: 'r1', input: { file_path: 'a' } }, { name: 'mcp__fake__echo', id: 'm1', input: { text: 'hi' } }, { name: 'Write', id: 'w1', input: { file_path: 'b', content: 'xy' } }] },
    { text: 'done' },
  ]);
  const host = api.createHost({
    model,
    tools: tools(api),
    cwd: '/proj',
    permissionMode: 'bypassPermissions',
    hooks: {
      PostToolUse: [
        { matcher: 'Read', hooks: [post({ updatedToolOutput: { redacted: true } })] },
        { matcher: 'mcp__fake__.*', hooks: [post({ updatedMCPToolOutput: { content: [{ type: 'text', text: 'clean' }, { type: 'image', data: '', mimeType: 'image/png' }] } })] },
        { matcher: 'Write', name: 'wrong', hooks: [post({ updatedMCPToolOutput: 'not for Write' })] },
      ],
    },
    plugins: [
      api.shellHooks([
        { event: 'PostToolUse', matcher: 'Read', timeoutMs: 10_000, command: `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"shell says: redacted"}}'` },
      ]),
    ],
  });
  const events = await run(host, 'go');
  await host.close();
  const problems: string[] = [];
  const outputs = Object.fromEntries(of(events, 'tool.output').map((o) => [o.toolUseId, o.content]));
  const want = { r1: 'shell says: redacted', m1: 'clean\n[image: image/png]', w1: 'wrote 2 bytes' };
  if (JSON.stringify(outputs) !== JSON.stringify(want)) problems.push(`tool.output ${JSON.stringify(outputs)}, wanted ${JSON.stringify(want)}`);
  const toModel = (model.requests[1]?.messages ?? []).filter((m) => m.role === 'tool').map((m) => (m as { content: string }).content);
  if (JSON.stringify(toModel) !== JSON.stringify(Object.values(want))) problems.push(`the model got ${JSON.stringify(toModel)}`);
  const wrong = of(events, 'hook.end').find((e) => e.hookName === 'wrong#0')?.failure;
  if (wrong?.code !== 'BAD_OUTPUT' || !/updatedMCPToolOutput rewrites an MCP tool's output/.test(wrong.message)) problems.push(`updatedMCPToolOutput on Write: ${JSON.stringify(wrong)}`);
  const firstRead = of(events, 'hook.end').find((e) => e.event === 'PostToolUse' && e.kind === 'js' && e.toolUseId === 'r1');
  if (firstRead?.failure) problems.push(`updatedToolOutput as JSON: ${JSON.stringify(firstRead.failure)}`);
  return problems;
}
