// conf7: SessionStart's input field is `source` (Claude Code's name), and matchers on SessionStart test it. A
// recording made before (`run --record` wrote `reason: "startup"`) still replays as it did: `plugin test --events`
// reads its `reason` as `source`, so a plugin's matcher sees it. Old code: the matcher was ignored (the
// `resume`-bound plugin answered a startup); new code without the reading: no `source`, so the matcher saw nothing.
import { describe, expect, it } from 'vitest';
import { encodePluginInfo } from '../../host/protocol/pb-codec.js';
import { wasmhooks } from '../../host/protocol/gen/hooks.js';
import { cannedPlugin } from '../fixtures/canned.js';
import { cli, workspace } from './helpers.js';

const v1 = wasmhooks.v1;

/** A plugin bound to SessionStart with `matcher`, answering continue. */
function sessionStartPlugin(matcher: string): Uint8Array {
  return cannedPlugin({
    describe: encodePluginInfo({
      name: `on-${matcher}`,
      version: '0.1.0',
      protocolVersion: 1,
      description: `SessionStart ${matcher}`,
      hooks: [{ event: v1.HookEvent.HOOK_EVENT_SESSION_START, matcher }],
      tools: [],
      grants: { configKeys: [] },
    }),
    hook: v1.HookResponse.encode({ decision: v1.Decision.DECISION_CONTINUE }).finish(),
    tool: null,
  });
}

const common = { session_id: 's', cwd: '/', turn: 1, iteration: 0, permission_mode: 'default' };
const lines = [
  { ...common, hook_event_name: 'SessionStart', reason: 'startup' }, // recorded before conf7
  { ...common, hook_event_name: 'SessionStart', source: 'resume' }, // recorded now (a resume: Claude Code's value)
].map((l) => JSON.stringify(l)).join('\n');

describe('plugin test --events: SessionStart recordings old and new', () => {
  it.each([
    ['startup', ['decided', 'unbound']],
    ['resume', ['unbound', 'decided']],
  ])('a plugin bound to SessionStart %s sees the old recording\'s reason as source', async (matcher, kinds) => {
    const dir = await workspace({ 'p.wasm': sessionStartPlugin(matcher), 'session.jsonl': lines });
    const r = await cli(['plugin', 'test', 'p.wasm', '--events', 'session.jsonl', '--json'], { cwd: dir });
    expect(r.stderr).toMatch(/2 inputs replayed, 1 bound/);
    const verdicts = r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { verdict: { kind: string } }).verdict.kind);
    expect(verdicts).toEqual(kinds);
  });
});
