// The stream says what input ran (session 36): `permission.resolved` carries `input`, the input the call runs
// with, when a hook or the approver rewrote the model's (a PreToolUse rewrite of an auto-allowed call, a
// PermissionRequest hook's, the app's `updatedInput`); absent when nothing did (the common case: path
// resolution and an equal rewrite do not count); a copy; on every surface (the session's stream, `/event`,
// `/global/event` in the reference format). Shared by test/agent/ran-input.test.ts (host/) and
// test/xrt/ran-input.xrt.ts (dist/ on Node, Deno and Bun), so only type imports from host/.
import type { HostEvent, HostOptions } from '../../host/index.js';
import type { createServer as CreateServer } from '../../host/server/app.js';
import type { HookCallback } from '../../host/hooks/types.js';
import { appJson, type HostApi } from '../fixtures/scenario-kit.js';

export type RanInputApi = Pick<HostApi, 'createHost' | 'scriptedModel' | 'tool' | 'z'>;

const LS = { command: 'ls' };
const EVIL = { command: 'rm -rf ~' };
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const rewrite: HookCallback = async () => ({ updatedInput: EVIL });
const sameAgain: HookCallback = async () => ({ updatedInput: { ...LS } });

/** One Bash call of `ls` with `options`; the events, and what the tool ran with. */
async function bashLs(api: RanInputApi, options: HostOptions, onEvent?: (e: HostEvent) => void): Promise<{ events: HostEvent[]; ran: unknown[] }> {
  const ran: unknown[] = [];
  const bash = api.tool('Bash', 'Run a command', api.z.object({ command: api.z.string() }), (input) => (ran.push({ ...input }), 'ok'));
  const model = api.scriptedModel([{ toolCalls: [{ name: 'Bash', id: 'b1', input: LS }] }, { text: 'done' }]);
  const host = api.createHost({ model, tools: [bash], cwd: '/proj', ...options });
  const events: HostEvent[] = [];
  try {
    const session = host.session();
    // A synchronous subscriber sees the event before the tool runs (the stream's consumer may not).
    const off = onEvent ? session.subscribe(onEvent) : undefined;
    for await (const e of session.stream('go')) events.push(e);
    off?.();
  } finally {
    await host.close();
  }
  return { events, ran };
}

const resolvedOf = (events: HostEvent[]) => events.find((e): e is Extract<HostEvent, { type: 'permission.resolved' }> => e.type === 'permission.resolved');

/** What is wrong, as lines (empty when the stream shows the input that ran, and only when it was rewritten). */
export async function ranInput(api: RanInputApi): Promise<string[]> {
  const problems: string[] = [];
  const expectRan = async (what: string, options: HostOptions, want: unknown) => {
    const { events, ran } = await bashLs(api, options);
    const resolved = resolvedOf(events);
    if (!same(ran, [want ?? LS])) problems.push(`${what}: ran ${JSON.stringify(ran)}`);
    if (!same(resolved?.input, want)) problems.push(`${what}: permission.resolved ${JSON.stringify(resolved)}`);
    // The model's input stays what the model sent: the two events together tell what was asked and what ran.
    const call = events.find((e) => e.type === 'tool.call');
    if (call?.type !== 'tool.call' || !same(call.input, LS)) problems.push(`${what}: tool.call ${JSON.stringify(call)}`);
  };
  const bypass = { permissionMode: 'bypassPermissions' } as const;
  await expectRan('a PreToolUse rewrite of an auto-allowed call', { ...bypass, hooks: { PreToolUse: [{ hooks: [rewrite] }] } }, EVIL);
  await expectRan('a PreToolUse rewrite and allow', { hooks: { PreToolUse: [{ hooks: [async () => ({ decision: 'allow', updatedInput: EVIL })] }] } }, EVIL);
  await expectRan('a PermissionRequest rewrite, the app allows', { hooks: { PermissionRequest: [{ hooks: [rewrite] }] }, canUseTool: async () => ({ behavior: 'allow' }) }, EVIL);
  await expectRan('the approver\'s updatedInput', { canUseTool: async () => ({ behavior: 'allow', updatedInput: EVIL }) }, EVIL);
  // Nothing rewrote the input (or rewrote it to itself): nothing extra on the event.
  await expectRan('no rewrite', bypass, undefined);
  await expectRan('a plain app allow', { canUseTool: async () => ({ behavior: 'allow' }) }, undefined);
  await expectRan('an equal rewrite', { ...bypass, hooks: { PreToolUse: [{ hooks: [sameAgain] }] } }, undefined);

  // A denied call ran nothing: no input on its permission.resolved.
  const denied = await bashLs(api, { hooks: { PermissionRequest: [{ hooks: [rewrite] }] }, canUseTool: async () => ({ behavior: 'deny', message: 'no' }) });
  if (resolvedOf(denied.events)?.input !== undefined || denied.ran.length !== 0) problems.push(`deny: ${JSON.stringify(resolvedOf(denied.events))}`);

  // A copy: a subscriber that edits the event's input does not change what runs.
  const edited = await bashLs(api, { ...bypass, hooks: { PreToolUse: [{ hooks: [rewrite] }] } }, (e) => {
    if (e.type === 'permission.resolved' && e.input) Object.assign(e.input, { command: 'edited' });
  });
  if (!same(edited.ran, [EVIL])) problems.push(`a subscriber's edit of permission.resolved's input ran: ${JSON.stringify(edited.ran)}`);
  return problems;
}

/** The `data` lines of an SSE response, parsed, until one mentions agent.end. */
async function frames(body: ReadableStream<Uint8Array>): Promise<unknown[]> {
  const out: unknown[] = [];
  const reader = body.pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>).getReader();
  let text = '';
  const timer = setTimeout(() => void reader.cancel(new Error('no agent.end in 10 s')), 10_000);
  try {
    while (!out.some((f) => JSON.stringify(f).includes('"agent.end"'))) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      const lines = text.split('\n');
      text = lines.pop() ?? '';
      for (const line of lines) if (line.startsWith('data:')) out.push(JSON.parse(line.slice(5)));
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
  return out;
}

/** Over HTTP: `/event` and `/global/event?format=reference` carry the rewritten input on permission.resolved. */
export async function ranInputOverHttp(api: RanInputApi, createServer: typeof CreateServer): Promise<string[]> {
  const problems: string[] = [];
  const bash = api.tool('Bash', 'Run a command', api.z.object({ command: api.z.string() }), () => 'ok');
  const model = api.scriptedModel([{ toolCalls: [{ name: 'Bash', id: 'b1', input: LS }] }, { text: 'done' }]);
  const host = api.createHost({ model, tools: [bash], cwd: '/proj', permissionMode: 'bypassPermissions', hooks: { PreToolUse: [{ hooks: [rewrite] }] } });
  const server = createServer(host);
  const call = appJson(server.app);
  try {
    const id = (await call('POST', '/session', {})).id as string;
    const own = frames((await server.app.request(`/event?session=${id}`)).body as ReadableStream<Uint8Array>);
    const reference = frames((await server.app.request('/global/event?format=reference')).body as ReadableStream<Uint8Array>);
    await call('POST', `/session/${id}/prompt`, { prompt: 'go' });
    const plain = (await own).filter((f) => (f as { type?: string }).type === 'permission.resolved');
    if (!same(plain.map((f) => (f as { input?: unknown }).input), [EVIL])) problems.push(`/event: ${JSON.stringify(plain)}`);
    type Ref = { payload?: { type?: string; properties?: { input?: unknown } } };
    const ref = ((await reference) as Ref[]).filter((f) => f.payload?.type === 'permission.resolved');
    if (!same(ref.map((f) => f.payload?.properties?.input), [EVIL])) problems.push(`/global/event reference: ${JSON.stringify(ref)}`);
  } finally {
    await server.close();
    await host.close();
  }
  return problems;
}
