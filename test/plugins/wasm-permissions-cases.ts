// A WASM PermissionRequest hook answering Claude Code's updatedPermissions (HookResponse.updated_permissions_json):
// the same rule as JS and shell hooks (permissions/updates.ts): an addRules allow of a whole tool allows it for the
// rest of the session; a bad shape, or updates beside anything but an allow, is BAD_OUTPUT and the hook's
// fail-closed deny. Shared by test/plugins/wasm-permissions.test.ts (host/) and test/xrt/wasm-permissions.xrt.ts
// (dist/ on Node, Deno and Bun), so only type imports from host/.
import { cannedPlugin, type CannedAnswer } from '../fixtures/canned-plugin.js';
import { writeTwice, type HostApi } from '../fixtures/scenario-kit.js';

export type WasmPermissionsApi = Pick<HostApi, 'createHost' | 'loadPlugin' | 'scriptedModel' | 'tool' | 'z'>;

const PERMISSION_REQUEST = 7;
const ALLOW = 2;
const DENY = 3;
const WRITE_FOR_SESSION = JSON.stringify([{ type: 'addRules', rules: [{ toolName: 'Write' }], behavior: 'allow', destination: 'session' }]);

/** The two Writes asked of a canned WASM PermissionRequest hook (no app); what resolved each, and the hook's failure if any. */
async function attempt(api: WasmPermissionsApi, answer: CannedAnswer): Promise<{ resolved: string[]; failure?: { code: string; message: string } }> {
  const plugin = await api.loadPlugin({ bytes: await cannedPlugin({ name: 'asker', hooks: [{ event: PERMISSION_REQUEST }] }, answer) });
  const { events, resolved } = await writeTwice(api, { plugins: [plugin] });
  const failure = events.flatMap((e) => (e.type === 'hook.end' && e.failure ? [e.failure] : []))[0];
  return { resolved, ...(failure ? { failure } : {}) };
}

/** What is wrong, as lines (empty when all is as Claude Code's contract says). */
export async function wasmUpdatedPermissions(api: WasmPermissionsApi): Promise<string[]> {
  const problems: string[] = [];
  const applied = await attempt(api, { decision: ALLOW, updatedPermissionsJson: WRITE_FOR_SESSION });
  if (JSON.stringify(applied.resolved) !== '["w1:allow:permission-hook:always","w2:allow:session"]') problems.push(`applied: ${JSON.stringify(applied)}`);

  const plain = await attempt(api, { decision: ALLOW });
  if (JSON.stringify(plain.resolved) !== '["w1:allow:permission-hook","w2:allow:permission-hook"]') problems.push(`no updates: ${JSON.stringify(plain)}`);

  const bad: Array<[string, CannedAnswer, RegExp]> = [
    ['not JSON', { decision: ALLOW, updatedPermissionsJson: '[{' }, /updated_permissions_json/],
    ['a bad shape', { decision: ALLOW, updatedPermissionsJson: '[{"type":"addRules","rules":"Write","behavior":"allow","destination":"session"}]' }, /updated_permissions_json: 0\.rules/],
    ['beside a deny', { decision: DENY, reason: 'no', updatedPermissionsJson: WRITE_FOR_SESSION }, /only with an allow/],
  ];
  for (const [what, answer, message] of bad) {
    const r = await attempt(api, answer);
    if (r.failure?.code !== 'BAD_OUTPUT' || !message.test(r.failure.message)) problems.push(`${what}: failure ${JSON.stringify(r.failure)}`);
    // PermissionRequest fails closed: the call is denied, and the next one asked again.
    if (!r.resolved[0]?.startsWith('w1:deny:permission-hook') || r.resolved.some((x) => x.includes('session'))) problems.push(`${what}: ${JSON.stringify(r.resolved)}`);
  }
  return problems;
}
