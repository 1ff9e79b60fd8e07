// rv15 (review of fix3 item 6): the HookResponse text caps held for WASM plugins only; a JS hook's return value and
// a shell hook's JSON went uncapped into every watcher's hook.end and the conversation. One implementation now
// (host/hooks/caps.ts, applied to every hook's answer in the chain). Shared by vitest (test/hooks/rv15-caps.test.ts)
// and test/xrt/rv15.xrt.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REASON_MAX = 131_072;
const CONTEXT_MAX = 262_144;

interface Deps {
  createHost: (options: Record<string, unknown>) => { session(): { subscribe(fn: (e: { type: string }) => void): unknown; prompt(text: string): Promise<{ subtype: string }> } };
  scriptedModel: (turns: unknown[]) => unknown;
  createShellHook: (spec: { event: string; matcher?: string; command: string }) => unknown;
  shellHooks: (handlers: unknown[]) => unknown;
}

interface End {
  type: string;
  decision?: string;
  reason?: string;
  systemMessage?: string;
  additionalContext?: string;
  failure?: { code: string; message: string };
}

async function run(deps: Deps, options: Record<string, unknown>): Promise<{ ran: number; end: End }> {
  let ran = 0;
  const tool = { name: 'Bash', description: 'counts its calls', inputSchema: { type: 'object' }, kind: 'js', run: async () => (ran++, { content: 'ok', isError: false }) };
  const model = deps.scriptedModel([{ toolCalls: [{ name: 'Bash', input: { command: 'ls' } }] }, { text: 'done' }]);
  const session = deps.createHost({ permissionMode: 'bypassPermissions', tools: [tool], ...options, model }).session();
  const ends: End[] = [];
  session.subscribe((e) => void (e.type === 'hook.end' && ends.push(e as End)));
  await session.prompt('go');
  assert.equal(ends.length, 1);
  return { ran, end: ends[0]! };
}

export async function hookTextCaps(deps: Deps): Promise<void> {
  const cases = [
    ['reason', REASON_MAX],
    ['systemMessage', REASON_MAX],
    ['additionalContext', CONTEXT_MAX],
  ] as const;
  const dir = mkdtempSync(join(tmpdir(), 'wasmhooks-rv15-caps-'));
  try {
  for (const [field, max] of cases) {
    for (const n of [max, max + 1]) {
      const answer = { decision: 'continue', [field]: 'x'.repeat(n) };
      const js = await run(deps, { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [async () => answer] }] } });
      // The shell hook prints the same JSON (a file the command cats: no 256 KB command line).
      const file = join(dir, `${field}-${n}.json`);
      writeFileSync(file, JSON.stringify(answer));
      const shell = await run(deps, { plugins: [deps.shellHooks([deps.createShellHook({ event: 'PreToolUse', matcher: 'Bash', command: `cat '${file}'` })])] });
      for (const [kind, { ran, end }] of [['js', js], ['shell', shell]] as const) {
        const label = `${kind} ${field} ${n}`;
        if (n === max) {
          assert.equal(end.failure, undefined, `${label}: ${end.failure?.message}`);
          assert.equal(ran, 1, label);
          if (field !== 'reason') assert.equal(end[field], answer[field], label);
        } else {
          assert.equal(end.failure?.code, 'BAD_OUTPUT', label);
          assert.match(end.failure!.message, new RegExp(`${field} is ${n} characters, above its cap of ${max}`), label);
          // A guard fails closed: the call is denied, and nothing of the text went out.
          assert.equal(end.decision, 'deny', label);
          assert.equal(ran, 0, label);
          assert.ok(JSON.stringify(end).length < 2000, `${label}: the text is not in the event`);
        }
      }
    }
  }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
