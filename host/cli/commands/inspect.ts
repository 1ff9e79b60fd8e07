/**
 * `wasmhooks plugin inspect <file|url>`: what a plugin is and asks for,
 * without granting it anything: its describe answer (bindings, tools,
 * requested grants), its wasm imports and exports, its size and sha256.
 */
import { WasmhooksError, messageOf } from '../../errors.js';
import { decodePluginInfo, type PluginInfo } from '../../protocol/codec.js';
import { defaultFailurePolicy } from '../../hooks/decisions.js';
import { matchesEveryTool } from '../../hooks/matcher.js';
import { createSandbox } from '../../sandbox/index.js';
import type { PluginFailure } from '../../sandbox/types.js';
import { EXIT, type ExitCode } from '../exit.js';
import { truncate } from '../format.js';
import { palette, useColor, type CliIO } from '../io.js';
import { readPluginBytes } from '../plugin-source.js';

export interface Inspection {
  origin: string;
  size: number;
  sha256: string;
  /** A first-party plugin whose bytes matched the package's pin. */
  pinned?: boolean;
  imports: Array<{ module: string; name: string; kind: string }>;
  exports: Array<{ name: string; kind: string }>;
  /** The validated describe answer, or why there is none. */
  describe: { ok: true; info: PluginInfo } | { ok: false; failure: PluginFailure };
}

/** Inspects plugin bytes. Never throws for a bad plugin: a failure is reported in `describe`. */
export async function inspectBytes(origin: string, bytes: Uint8Array, sha256: string): Promise<Inspection> {
  let module: WebAssembly.Module;
  try {
    module = await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
  } catch (error) {
    throw new WasmhooksError('INVALID_WASM', `${origin} is not a valid WebAssembly module: ${messageOf(error)}`);
  }
  const base = {
    origin,
    size: bytes.length,
    sha256,
    imports: WebAssembly.Module.imports(module).map((i) => ({ module: i.module, name: i.name, kind: i.kind })),
    exports: WebAssembly.Module.exports(module).map((e) => ({ name: e.name, kind: e.kind })),
  };
  if (!base.exports.some((e) => e.name === 'describe')) {
    return { ...base, describe: { ok: false, failure: { code: 'MISSING_EXPORT', message: 'no "describe" export: not a wasmhooks plugin (build it with the guest SDK)' } } };
  }
  let sandbox;
  try {
    sandbox = await createSandbox(bytes, { name: origin });
  } catch (error) {
    return { ...base, describe: { ok: false, failure: { code: 'LOAD_FAILED', message: messageOf(error) } } };
  }
  try {
    const out = await sandbox.call('describe', new Uint8Array());
    if (!out.ok) return { ...base, describe: { ok: false, failure: out.failure } };
    const info = decodePluginInfo(out.output);
    return { ...base, describe: info.ok ? { ok: true, info: info.value } : { ok: false, failure: info.failure } };
  } finally {
    await sandbox.close();
  }
}

export function renderInspection(r: Inspection, color: boolean): string {
  const p = palette(color);
  const lines: string[] = [];
  const head = r.describe.ok ? `${p.bold(r.describe.info.name)} ${r.describe.info.version}` : p.bold(r.origin);
  lines.push(head);
  if (r.describe.ok && r.describe.info.description) lines.push(`  ${r.describe.info.description}`);
  lines.push(`  file      ${r.origin}`);
  lines.push(`  size      ${r.size} bytes (${(r.size / 1024).toFixed(1)} KiB)`);
  lines.push(`  sha256    ${r.sha256}${r.pinned ? p.dim('  (first-party: matches the package\'s pin)') : ''}`);
  if (r.describe.ok) {
    const info = r.describe.info;
    lines.push(`  protocol  v${info.protocolVersion}`);
    lines.push('', p.bold(`hooks (${info.hooks.length})`));
    for (const h of info.hooks) {
      const policy = h.failurePolicy ?? `${defaultFailurePolicy(h.event)} (default)`;
      lines.push(`  ${h.event.padEnd(18)} matcher ${matchesEveryTool(h.matcher) ? '(all tools)' : `/${h.matcher}/`}  ${p.dim(policy)}`);
    }
    lines.push('', p.bold(`tools (${info.tools.length})`));
    for (const t of info.tools) {
      lines.push(`  ${t.name}  ${t.description}`, p.dim(`    input ${truncate(JSON.stringify(t.inputSchema), 100)}`));
    }
    const g = info.grants;
    const asked = g.networkHosts.length + g.filePaths.length + g.configKeys.length;
    lines.push('', p.bold(`requested grants${asked === 0 ? ' (none)' : ''}`));
    if (g.networkHosts.length) lines.push(`  network hosts  ${g.networkHosts.join(', ')}`);
    if (g.filePaths.length) lines.push(`  file paths     ${g.filePaths.join(', ')}`);
    if (g.configKeys.length) lines.push(`  config keys    ${g.configKeys.join(', ')}`);
  } else {
    lines.push('', p.red(`describe failed (${r.describe.failure.code}): ${r.describe.failure.message}`));
  }
  lines.push('', p.bold(`imports (${r.imports.length})`));
  const byModule = new Map<string, string[]>();
  for (const i of r.imports) byModule.set(i.module, [...(byModule.get(i.module) ?? []), i.kind === 'function' ? i.name : `${i.name} (${i.kind})`]);
  for (const [module, names] of byModule) lines.push(`  ${module}: ${names.join(', ')}`);
  lines.push('', p.bold(`exports (${r.exports.length})`));
  lines.push(`  ${r.exports.map((e) => (e.kind === 'function' ? e.name : `${e.name} (${e.kind})`)).join(', ')}`);
  return `${lines.join('\n')}\n`;
}

export async function inspectCommand(ref: string, flags: { json?: boolean }, io: CliIO): Promise<ExitCode> {
  const plugin = await readPluginBytes(ref, io.cwd);
  const report = { ...(await inspectBytes(ref, plugin.bytes, plugin.sha256)), ...(plugin.pinned ? { pinned: true } : {}) };
  if (flags.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else io.stdout.write(renderInspection(report, useColor(io.stdout, io.env)));
  return report.describe.ok ? EXIT.OK : EXIT.ERROR;
}
