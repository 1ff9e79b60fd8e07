// Conformance trace on Node, Deno and Bun against the ESM build: one fixed scripted session with
// JS and WASM hooks (guard-shell, secret-redactor, require-verification), a WASM tool (calc), a
// permission answer, a rewrite that is re-checked, a Stop handler that blocks once, then the abort
// and failure paths. Each prompt's normalised event trace (test/agent/trace.ts: no times, ids or
// delta counts) must equal the trace written below, which is the order docs/events.md promises.
// TRACE_DUMP=1 prints the traces as they came.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createHost, eventGrammarViolations, loadPlugin, scriptedModel } from '../../dist/index.js';
import type { HookCallback, HostEvent, Session, ToolHandler, WasmPlugin } from '../../dist/index.js';
import { trace, violationLines } from '../agent/trace.ts';

const brokenInvariants = (events: readonly HostEvent[]) => violationLines(eventGrammarViolations(events));
import { asGuard } from '../fixtures/hostile/guard.ts';
import { hostile } from './wat.js';

/** A generous deadline: the traces, not the timing, are under test (a loaded 2-core machine once took > 100 ms for describe). */
const SLOW_MACHINE = { limits: { timeoutMs: 5_000 } };
const load = async (name: string) => loadPlugin({ bytes: new Uint8Array(await readFile(new URL(`../../plugins/${name}/build/${name}.wasm`, import.meta.url))) }, SLOW_MACHINE);

/** A shell stand-in: reports progress, prints a secret (for the redactor), fails for `false`. */
const bash: ToolHandler = {
  name: 'Bash',
  description: 'Runs a command (a stand-in)',
  inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  kind: 'js',
  run: async (input: Record<string, unknown>, ctx) => {
    ctx.onProgress?.('running');
    if (input.command === 'false') return { content: 'exit 1', isError: true };
    return { content: `ran ${String(input.command)} with AKIAIOSFODNN7EXAMPLE`, isError: false };
  },
};

async function collect(session: Session, prompt: string, signal?: AbortSignal): Promise<HostEvent[]> {
  const events: HostEvent[] = [];
  for await (const event of session.stream(prompt, signal ? { signal } : {})) events.push(event);
  return events;
}

function assertTrace(events: HostEvent[], want: string[]): void {
  assert.deepEqual(brokenInvariants(events), []);
  if (process.env.TRACE_DUMP) console.log(JSON.stringify(trace(events), null, 1));
  assert.deepEqual(trace(events), want);
}

async function withPlugins(fn: (plugins: WasmPlugin[]) => Promise<void>): Promise<void> {
  const plugins = [await load('guard-shell'), await load('secret-redactor'), await load('require-verification')];
  try {
    await fn(plugins);
  } finally {
    await Promise.all(plugins.map((p) => p.close()));
  }
}

export const scenarios: Record<string, () => Promise<void>> = {
  'a session with JS and WASM hooks, a WASM tool, a permission answer, a re-check and a Stop block': () =>
    withPlugins(async (wasm) => {
      const calc = await load('calc');
      try {
        // A JS hook registered after the WASM guard normalises `pwd ` (trailing space): the rewrite is re-checked.
        let model: ReturnType<typeof scriptedModel>;
        const trim: HookCallback = async (i) => ('tool_input' in i && typeof i.tool_input.command === 'string' && i.tool_input.command !== i.tool_input.command.trim() ? { updatedInput: { command: i.tool_input.command.trim() } } : {});
        const observe: HookCallback = async () => ({});
        const host = createHost({
          cwd: '/work/app',
          tools: [bash],
          plugins: [...wasm, calc],
          hooks: {
            UserPromptSubmit: [{ hooks: [observe] }],
            PermissionRequest: [{ hooks: [async () => ({ additionalContext: 'asked about calc' })] }],
            // An observer that breaks fails open: the failure is on its hook.end, nothing else changes.
            PostToolUseFailure: [{ hooks: [async () => { throw new Error('observer broke'); }] }],
            PostToolBatch: [{ hooks: [observe] }],
          },
          allowedTools: ['Bash'],
          canUseTool: async () => ({ behavior: 'allow' }),
          model: (model = scriptedModel({
            turns: [
              {
                thinking: 'Let me check',
                text: 'Looking around',
                toolCalls: [
                  { name: 'Bash', id: 'b1', input: { command: 'pwd ' } },
                  { name: 'Bash', id: 'b2', input: { command: 'rm -rf /' } },
                  { name: 'calc', id: 'c1', input: { expression: '(17 + 25) * 3' } },
                  { name: 'Bash', id: 'b3', input: { command: 'false' } },
                ],
              },
              { text: 'All done.' },
              { toolCalls: [{ name: 'Bash', id: 'b4', input: { command: 'npm test' } }] },
              { text: 'Tests pass.' },
            ],
          })),
        });
        host.hooks.add('PreToolUse', { hooks: [trim] });
        const events = await collect(host.session(), 'go');
        assertTrace(events, EXPECTED_SESSION);
        // The redactor's rewrite is what tool.output carries; calc answered 126.
        const outputs = events.flatMap((e) => (e.type === 'tool.output' ? [e.content] : []));
        assert.deepEqual(outputs, ['ran pwd with [REDACTED:aws-access-key]', '126', 'exit 1', 'ran npm test with [REDACTED:aws-access-key]']);
        // The PermissionRequest hook's context reached the next model call; the Stop block's reason became a user message.
        const texts = (i: number) => model.requests[i]?.messages.flatMap((m) => (m.role === 'user' ? [m.content] : [])) ?? [];
        assert.ok(texts(1).some((t) => t.includes('<hook-context from=') && t.includes('asked about calc')), JSON.stringify(texts(1)));
        assert.match(texts(2).at(-1) ?? '', /^<hook-context from="require-verification" event="Stop">\nrequire-verification: no-test-run/);
      } finally {
        await calc.close();
      }
    }),

  'abort during a WASM-guarded tool call: one agent.end (aborted), the call settles once, nothing after': () =>
    withPlugins(async (wasm) => {
      const controller = new AbortController();
      const slow: ToolHandler = { ...bash, run: (_input, ctx) => new Promise((resolve) => { ctx.onProgress?.('started'); controller.abort(); ctx.signal.addEventListener('abort', () => resolve({ content: 'late', isError: false })); }) };
      const host = createHost({
        cwd: '/work/app',
        tools: [slow],
        plugins: wasm,
        permissionMode: 'bypassPermissions',
        model: scriptedModel([{ toolCalls: [{ name: 'Bash', id: 'b1', input: { command: 'ls' } }, { name: 'Bash', id: 'b2', input: { command: 'ls' } }] }, { text: 'never' }]),
      });
      assertTrace(await collect(host.session(), 'go', controller.signal), [
        'agent.start', 'turn.start 1', 'message.start', 'tool.input.delta*', 'tool.call Bash b1', 'tool.input.delta*', 'tool.call Bash b2', 'message.end tool_use',
        'hook.start PreToolUse wasm:guard-shell', 'hook.end PreToolUse wasm:guard-shell allow plugin=guard-shell fuel',
        'permission.resolved b1 allow hook',
        'tool.progress* b1', 'tool.output b1 error', 'tool.denied b2 aborted',
        'turn.end 1 aborted calls=2', 'agent.end aborted',
      ]);
    }),

  'a WASM guard whose answer cannot be read denies (fail-closed); one that runs out of fuel under a fail-open binding lets the call run': async () => {
    const garbage = await loadPlugin({ bytes: await hostile('garbage-output', (src) => asGuard(src.replace('(func (export "run")', '(func $run (export "run")'), 'run')) }, SLOW_MACHINE);
    const spin = await loadPlugin({ bytes: await hostile('bulk-spin', (src) => asGuard(src, 'memory_fill')) }, { limits: { timeoutMs: 5_000, fuel: 2_000_000 }, failurePolicy: { PreToolUse: 'fail-open' } });
    try {
      const prompt = async (guard: WasmPlugin) => {
        const host = createHost({ tools: [bash], plugins: [guard], permissionMode: 'bypassPermissions', model: scriptedModel([{ toolCalls: [{ name: 'Bash', id: 'b1', input: { command: 'ls' } }] }, { text: 'done' }]) });
        const events = await collect(host.session(), 'go');
        assert.deepEqual(brokenInvariants(events), []);
        return events;
      };
      const call = ['agent.start', 'turn.start 1', 'message.start', 'tool.input.delta*', 'tool.call Bash b1', 'message.end tool_use', 'hook.start PreToolUse wasm:hostile'];
      const after = ['turn.end 1 tool_use calls=1', 'turn.start 2', 'message.start', 'text.delta*', 'message.end end_turn', 'turn.end 2 end_turn calls=0', 'agent.end success'];
      const closed = await prompt(garbage);
      assert.deepEqual(trace(closed), [...call, 'hook.end PreToolUse wasm:hostile deny failure=BAD_OUTPUT/fail-closed plugin=hostile fuel', 'tool.denied b1 hook by=hostile', ...after]);
      const denied = closed.find((e) => e.type === 'tool.denied');
      assert.match(denied?.type === 'tool.denied' ? denied.reason : '', /^hook "hostile" failed \(BAD_OUTPUT\)/);
      const open = await prompt(spin);
      assert.deepEqual(trace(open), [...call, 'hook.end PreToolUse wasm:hostile continue failure=FUEL_EXHAUSTED/fail-open plugin=hostile fuel', 'permission.resolved b1 allow mode', 'tool.progress* b1', 'tool.output b1 ok', ...after]);
    } finally {
      await Promise.all([garbage.close(), spin.close()]);
    }
  },

  'abort during an IterationStart hook: the open turn ends (turn.end aborted), then agent.end': async () => {
    const controller = new AbortController();
    const host = createHost({
      model: scriptedModel([{ text: 'never' }]),
      hooks: { IterationStart: [{ hooks: [(_i, _id, { signal }) => new Promise((resolve) => { signal.addEventListener('abort', () => resolve({})); controller.abort(); })] }] },
    });
    const events = await collect(host.session(), 'go', controller.signal);
    assertTrace(events, [
      'agent.start', 'turn.start 1', 'hook.start IterationStart js:js#0', 'hook.end IterationStart js:js#0 continue failure=ABORTED/fail-open', 'turn.end 1 aborted calls=0', 'agent.end aborted',
    ]);
    const end = events.at(-1);
    assert.equal(end?.type === 'agent.end' ? end.result.turns : -1, 0); // no model call was made
  },

  'abort inside a sub-agent: it winds down before the agent call\'s tool.output': async () => {
    const controller = new AbortController();
    const host = createHost({
      tools: [bash],
      agents: { sh: { description: 'runs commands', systemPrompt: 'run', tools: ['Bash'] } },
      // Inline, so that its name is js#0 on every runtime (Bun names a typed arrow const differently).
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [(_i, _id, { signal }) => new Promise((resolve) => { signal.addEventListener('abort', () => resolve({})); controller.abort(); })] }] },
      permissionMode: 'bypassPermissions',
      model: scriptedModel([{ toolCalls: [{ name: 'agent', id: 'ag', input: { subagent_type: 'sh', prompt: 'ls' } }] }, { toolCalls: [{ name: 'Bash', id: 'in', input: { command: 'ls' } }] }]),
    });
    const sub = (l: string) => `[sh@ag] ${l}`;
    assertTrace(await collect(host.session(), 'go', controller.signal), [
      'agent.start', 'turn.start 1', 'message.start', 'tool.input.delta*', 'tool.call agent ag', 'message.end tool_use', 'permission.resolved ag allow mode',
      ...['subagent.start sh', 'turn.start 1', 'message.start', 'tool.input.delta*', 'tool.call Bash in', 'message.end tool_use'].map(sub),
      ...['hook.start PreToolUse js:js#0', 'hook.end PreToolUse js:js#0 deny failure=ABORTED/fail-closed', 'tool.denied in aborted', 'turn.end 1 aborted calls=1', 'subagent.end sh aborted isError'].map(sub),
      'tool.output ag error', 'turn.end 1 aborted calls=1', 'agent.end aborted',
    ]);
  },

  'a model stream error and a failing fail-closed JS guard: each prompt ends once, the reason in the event': async () => {
    const host = createHost({
      tools: [bash],
      hooks: { PreToolUse: [{ hooks: [async () => { throw new Error('policy server down'); }] }], StopFailure: [{ hooks: [async () => ({})] }] },
      permissionMode: 'bypassPermissions',
      model: scriptedModel([{ toolCalls: [{ name: 'Bash', id: 'b1', input: { command: 'ls' } }] }, { text: 'half', error: { code: 'OVERLOADED', message: 'try later' } }]),
    });
    const events = await collect(host.session(), 'go');
    assertTrace(events, [
      'agent.start', 'turn.start 1', 'message.start', 'tool.input.delta*', 'tool.call Bash b1', 'message.end tool_use',
      'hook.start PreToolUse js:js#0', 'hook.end PreToolUse js:js#0 deny failure=TRAP/fail-closed',
      'tool.denied b1 hook by=js#0', 'turn.end 1 tool_use calls=1',
      'turn.start 2', 'message.start', 'text.delta*', 'turn.end 2 error calls=0', 'error OVERLOADED',
      'hook.start StopFailure js:js#0', 'hook.end StopFailure js:js#0 continue',
      'agent.end error_during_execution error=OVERLOADED',
    ]);
    const denied = events.find((e) => e.type === 'tool.denied');
    assert.match(denied?.type === 'tool.denied' ? denied.reason : '', /hook "js#0" failed \(TRAP\): hook threw: policy server down/);
  },
};

/** The first scenario's trace: the order docs/events.md states. */
const EXPECTED_SESSION: string[] = [
  'agent.start',
  'hook.start UserPromptSubmit js:observe#0', 'hook.end UserPromptSubmit js:observe#0 continue',
  'turn.start 1',
  'message.start',
  'thinking.delta*',
  'text.delta*',
  'tool.input.delta*',
  'tool.call Bash b1',
  'tool.input.delta*',
  'tool.call Bash b2',
  'tool.input.delta*',
  'tool.call calc c1',
  'tool.input.delta*',
  'tool.call Bash b3',
  'message.end tool_use',
  'hook.start PreToolUse wasm:guard-shell', 'hook.end PreToolUse wasm:guard-shell allow plugin=guard-shell fuel',
  'hook.start PreToolUse js:trim#0', 'hook.end PreToolUse js:trim#0 continue',
  'permission.resolved b1 allow hook',
  'hook.start PreToolUse wasm:guard-shell recheck', 'hook.end PreToolUse wasm:guard-shell recheck allow plugin=guard-shell fuel',
  'hook.start PreToolUse js:trim#0 recheck', 'hook.end PreToolUse js:trim#0 recheck continue',
  'tool.progress* b1',
  'hook.start PostToolUse wasm:secret-redactor', 'hook.end PostToolUse wasm:secret-redactor continue plugin=secret-redactor fuel',
  'hook.start PostToolUse wasm:require-verification', 'hook.end PostToolUse wasm:require-verification continue plugin=require-verification fuel',
  'tool.output b1 ok',
  'hook.start PreToolUse wasm:guard-shell', 'hook.end PreToolUse wasm:guard-shell deny plugin=guard-shell fuel',
  'tool.denied b2 hook by=guard-shell',
  'hook.start PreToolUse js:trim#0', 'hook.end PreToolUse js:trim#0 continue',
  'hook.start PermissionRequest js:js#0', 'hook.end PermissionRequest js:js#0 continue',
  'permission.request c1',
  'permission.resolved c1 allow callback',
  'tool.progress* c1',
  'hook.start PostToolUse wasm:secret-redactor', 'hook.end PostToolUse wasm:secret-redactor continue plugin=secret-redactor fuel',
  'tool.output c1 ok',
  'hook.start PreToolUse wasm:guard-shell', 'hook.end PreToolUse wasm:guard-shell allow plugin=guard-shell fuel',
  'hook.start PreToolUse js:trim#0', 'hook.end PreToolUse js:trim#0 continue',
  'permission.resolved b3 allow hook',
  'tool.progress* b3',
  'hook.start PostToolUseFailure js:js#0', 'hook.end PostToolUseFailure js:js#0 continue failure=TRAP/fail-open',
  'hook.start PostToolUseFailure wasm:secret-redactor', 'hook.end PostToolUseFailure wasm:secret-redactor continue plugin=secret-redactor fuel',
  'tool.output b3 error',
  'hook.start PostToolBatch js:observe#0', 'hook.end PostToolBatch js:observe#0 continue',
  'turn.end 1 tool_use calls=4',
  'turn.start 2',
  'message.start',
  'text.delta*',
  'message.end end_turn',
  'hook.start Stop wasm:require-verification', 'hook.end Stop wasm:require-verification block plugin=require-verification fuel',
  'turn.end 2 end_turn calls=0',
  'turn.start 3',
  'message.start',
  'tool.input.delta*',
  'tool.call Bash b4',
  'message.end tool_use',
  'hook.start PreToolUse wasm:guard-shell', 'hook.end PreToolUse wasm:guard-shell allow plugin=guard-shell fuel',
  'hook.start PreToolUse js:trim#0', 'hook.end PreToolUse js:trim#0 continue',
  'permission.resolved b4 allow hook',
  'tool.progress* b4',
  'hook.start PostToolUse wasm:secret-redactor', 'hook.end PostToolUse wasm:secret-redactor continue plugin=secret-redactor fuel',
  'hook.start PostToolUse wasm:require-verification', 'hook.end PostToolUse wasm:require-verification continue plugin=require-verification fuel',
  'tool.output b4 ok',
  'hook.start PostToolBatch js:observe#0', 'hook.end PostToolBatch js:observe#0 continue',
  'turn.end 3 tool_use calls=1',
  'turn.start 4',
  'message.start',
  'text.delta*',
  'message.end end_turn',
  'hook.start Stop wasm:require-verification', 'hook.end Stop wasm:require-verification continue plugin=require-verification fuel',
  'turn.end 4 end_turn calls=0',
  'agent.end success',
];
