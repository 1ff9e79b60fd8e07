// examples/rust-plugin (Rust, no_std, the raw ABI) built with rustc and run through
// loadPlugin — only where the machine's Rust has the wasm32-unknown-unknown target.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadPlugin } from '../../host/index.js';
import type { HookInput } from '../../host/index.js';

function wasmTarget(): string | undefined {
  const sysroot = spawnSync('rustc', ['--print', 'sysroot'], { encoding: 'utf8' });
  if (sysroot.status !== 0) return 'rustc is not installed';
  if (!existsSync(join(sysroot.stdout.trim(), 'lib/rustlib/wasm32-unknown-unknown'))) return 'rustc has no wasm32-unknown-unknown target (rustup target add wasm32-unknown-unknown)';
  return undefined;
}

const missing = wasmTarget();
if (missing) console.warn(`examples/rust-plugin is not built or tested here: ${missing}`);

const bash = (command: string): HookInput => ({
  session_id: 's', cwd: '/w', turn: 1, iteration: 1, permission_mode: 'default',
  hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't',
});

describe.skipIf(missing !== undefined)('examples/rust-plugin', () => {
  it('builds with rustc, describes itself and denies rm -rf /', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'rust-guard-')), 'rust-guard.wasm');
    const src = fileURLToPath(new URL('../../examples/rust-plugin/src/lib.rs', import.meta.url));
    execFileSync('rustc', ['--edition', '2021', '--target', 'wasm32-unknown-unknown', '--crate-type', 'cdylib', '-C', 'opt-level=s', '-C', 'panic=abort', src, '-o', out]);
    const guard = await loadPlugin({ path: out });
    try {
      expect(guard.info).toMatchObject({ name: 'rust-guard', version: '0.1.0', hooks: [{ event: 'PreToolUse', matcher: 'Bash', failurePolicy: 'fail-closed' }] });
      expect(await guard.callHook(bash('rm -rf / --no-preserve-root'))).toMatchObject({ ok: true, output: { decision: 'deny', reason: 'rust-guard: refusing rm -rf /' } });
      expect(await guard.callHook(bash('ls'))).toMatchObject({ ok: true, output: { decision: 'continue' } });
    } finally {
      await guard.close();
    }
  }, 120_000);
});
