// conf7: Claude Code's hook contract for JS and shell hooks, on Node, Deno and Bun against the build
// (test/agent/conf7-claude-hooks.ts; vitest twins: test/agent/conf7.claude-hooks.test.ts and
// test/cli/conf7.replay-session-start.test.ts). A PermissionRequest stop ends the turn; updatedPermissions;
// permission_suggestions; SubagentStop stop_hook_active; matchers on non-tool events (WASM bindings too); SessionStart
// `source`, with an old recording's `reason` replayed as it; PostToolUse updatedToolOutput/updatedMCPToolOutput.
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { createHost, loadPlugin, scriptedModel, shellHooks, tool } from '../../dist/index.js';
import type { HostEvent } from '../../dist/index.js';
import { nonToolMatchers, permissionStop, rewrittenToolOutput, subagentStopActive, updatedPermissions, type Conf7Api } from '../agent/conf7-claude-hooks.ts';
import { runCli } from './cli-run.ts';
import { describeBytes } from './hooks-match.xrt.ts';

// By URL: Deno does not map `.js` to `.ts` as tsx and Bun do.
const { cannedPlugin } = (await import(new URL('../fixtures/canned.ts', import.meta.url).href)) as typeof import('../fixtures/canned.js');

const api = { createHost, scriptedModel, shellHooks, tool, z } as unknown as Conf7Api;

export const scenarios: Record<string, () => Promise<void>> = {
  'PermissionRequest continue:false (JS) and a deny with interrupt:true (shell) end the turn: stoppedBy PermissionRequest, the batch stopped': async () => {
    assert.deepEqual(await permissionStop(api), []);
  },
  'updatedPermissions: a whole-tool addRules allow is a session allow rule; other shapes read, not applied; a bad shape BAD_OUTPUT; permission_suggestions offered': async () => {
    assert.deepEqual(await updatedPermissions(api), []);
  },
  'SubagentStop stop_hook_active is true once a block sent the sub-agent back (JS and shell)': async () => {
    assert.deepEqual(await subagentStopActive(api), []);
  },
  'matchers on non-tool events (JS and shell): SessionStart source, SessionEnd reason, Notification notification_type, Subagent* agent_type, *Compact trigger': async () => {
    assert.deepEqual(await nonToolMatchers(api), []);
  },
  'PostToolUse updatedToolOutput and updatedMCPToolOutput rewrite what the model and tool.output get': async () => {
    assert.deepEqual(await rewrittenToolOutput(api), []);
  },
  'a WASM binding on SessionStart runs only where its matcher accepts the source': async () => {
    const bytes = cannedPlugin({ describe: describeBytes([['SessionStart', 'resume'], ['SessionStart', 'startup'], ['SessionStart', 'clear|compact']]), hook: new Uint8Array() });
    const host = createHost({ model: scriptedModel([{ text: 'ok' }]), plugins: [await loadPlugin({ bytes: bytes as Uint8Array<ArrayBuffer> })] });
    const events: HostEvent[] = [];
    for await (const e of host.session().stream('hi')) events.push(e);
    await host.close();
    const ran = events.filter((e) => e.type === 'hook.end' && e.event === 'SessionStart').length;
    assert.equal(ran, 1, JSON.stringify(events.filter((e) => e.type === 'hook.end')));
  },
  'plugin test --events replays a SessionStart recorded with reason (before conf7) as source': async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wasmhooks-conf7-'));
    const common = { session_id: 's', cwd: '/', turn: 1, iteration: 0, permission_mode: 'default' };
    await writeFile(join(dir, 'p.wasm'), cannedPlugin({ describe: describeBytes([['SessionStart', 'resume']]), hook: new Uint8Array() }));
    await writeFile(join(dir, 'session.jsonl'), [{ ...common, hook_event_name: 'SessionStart', reason: 'startup' }, { ...common, hook_event_name: 'SessionStart', source: 'resume' }].map((l) => JSON.stringify(l)).join('\n'));
    const r = await runCli(['plugin', 'test', 'p.wasm', '--events', 'session.jsonl', '--json'], dir);
    assert.equal(r.code, 0, r.stderr);
    const kinds = r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { verdict: { kind: string } }).verdict.kind);
    assert.deepEqual(kinds, ['unbound', 'decided']);
  },
};
