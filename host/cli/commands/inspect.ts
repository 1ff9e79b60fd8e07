/**
 * `wasmhooks plugin inspect <file|url>`: what a plugin is and asks for,
 * without granting it anything: its describe answer (bindings, tools,
 * requested grants), its wasm imports and exports, its size and sha256.
 */
import type { PluginEntry } from '../../config/schema.js';
import { WasmhooksError, messageOf } from '../../errors.js';
import { USER_MODULE, type HostFunctions } from '../../sandbox/host-functions.js';
import { functionImports, INTERNAL_EXPORTS, WASI_MODULE } from '../../sandbox/imports.js';
import { wasiGrant, type WasiGrant } from '../../sandbox/wasi/options.js';
import { decodePluginInfo, type PluginInfo } from '../../protocol/codec.js';
import { defaultFailurePolicy } from '../../hooks/decisions.js';
import { matchesEveryTool } from '../../hooks/matcher.js';
import { createSandbox } from '../../sandbox/index.js';
import { returnCodeCheck } from '../../plugins/return-code.js';
import type { PluginFailure } from '../../failure.js';
import { EXIT, type ExitCode } from '../exit.js';
import { truncate } from '../format.js';
import { palette, useColor, type CliIO } from '../io.js';
import { readPluginBytes } from '../plugin-source.js';
import { readConfig } from '../setup.js';
import { printableDeep } from '../printable.js';

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
  /** What it needs granted to load: WASI functions it imports, embedder host functions by name. */
  needs: { wasi: string[]; hostFunctions: string[] };
  /** Function exports a `tools` entry could use (for a plugin without our protocol). */
  toolExports: string[];
  /** The config entry naming this plugin, if any: its pin and everything it grants. */
  configured?: {
    pin: string | null;
    pinMatches: boolean | null;
    grants: NonNullable<PluginEntry['grants']>;
    wasi: WasiGrant | null;
    tools: string[];
  };
}

const EXTISM_INTERNAL = new Set(['memory', '__wasmhooks_fuel', 'call', 'hs_init', '_initialize', '_start']);

/** Inspects plugin bytes. Never throws for a bad plugin: a failure is reported in `describe`. */
export async function inspectBytes(origin: string, bytes: Uint8Array, sha256: string, entry?: PluginEntry): Promise<Inspection> {
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
  const needs = {
    wasi: base.imports.filter((i) => i.module === WASI_MODULE).map((i) => i.name),
    hostFunctions: base.imports.filter((i) => i.module === USER_MODULE).map((i) => i.name),
  };
  const toolExports = base.exports
    .filter((e) => e.kind === 'function' && !EXTISM_INTERNAL.has(e.name) && !INTERNAL_EXPORTS.has(e.name) && !['describe', 'hook', 'tool'].includes(e.name))
    .map((e) => e.name);
  const extra = { needs, toolExports, ...(entry ? { configured: configured(entry, sha256) } : {}) };
  if (!base.exports.some((e) => e.name === 'describe')) {
    const hint = toolExports.length > 0 ? `; its exports can be used as tools with a "tools" entry (${toolExports.join(', ')})` : '';
    return { ...base, ...extra, describe: { ok: false, failure: { code: 'MISSING_EXPORT', message: `no "describe" export: not a wasmhooks protocol plugin${hint}` } } };
  }
  // Inspection grants nothing beyond WASI's deny-by-default base (never the entry's args, env or
  // directories: they are shown, and a repository's config is not trusted here), and host functions that refuse to run.
  const stubs: HostFunctions = {};
  for (const name of needs.hostFunctions) {
    const sig = functionSignature(bytes, name);
    stubs[name] = { ...sig, fn: () => { throw new Error(`host function ${name} is not available to plugin inspect`); } };
  }
  let sandbox;
  try {
    sandbox = await createSandbox(bytes, {
      name: origin,
      ...(needs.wasi.length > 0 ? { wasi: true } : {}),
      ...(needs.hostFunctions.length > 0 ? { hostFunctions: stubs } : {}),
    });
  } catch (error) {
    return { ...base, ...extra, describe: { ok: false, failure: { code: 'LOAD_FAILED', message: messageOf(error) } } };
  }
  try {
    const out = await sandbox.call('describe', new Uint8Array(), returnCodeCheck(origin, 'describe'));
    if (!out.ok) return { ...base, ...extra, describe: { ok: false, failure: out.failure } };
    const info = decodePluginInfo(out.output);
    return { ...base, ...extra, describe: info.ok ? { ok: true, info: info.value } : { ok: false, failure: info.failure } };
  } finally {
    await sandbox.close();
  }
}

function renderInspection(r: Inspection, color: boolean): string {
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
  if (r.needs.wasi.length > 0) {
    lines.push('', p.bold('needs WASI'), `  ${r.needs.wasi.length} preview1 functions; loads only with "wasi" (true: clocks, random, stdout/stderr as logs; no files, args or env)`);
  }
  if (r.needs.hostFunctions.length > 0) {
    lines.push('', p.bold('needs host functions'), `  ${r.needs.hostFunctions.join(', ')} (extism:host/user; grant with grants.hostFunctions)`);
  }
  if (!r.describe.ok && r.toolExports.length > 0) {
    lines.push('', p.bold(`exports usable as tools (${r.toolExports.length})`), `  ${r.toolExports.join(', ')}`);
  }
  if (r.configured) lines.push(...renderConfigured(r.configured, p));
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
  // The wasmhooks.json here, if it names this plugin, says what it is granted.
  const config = await readConfig({}, io).catch(() => undefined);
  const entry = config?.plugins?.find((e) => (plugin.path !== undefined ? e.path === plugin.path : e.url === ref));
  const report = { ...(await inspectBytes(ref, plugin.bytes, plugin.sha256, entry)), ...(plugin.pinned ? { pinned: true } : {}) };
  if (flags.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  // Names, descriptions, grants and exports are the plugin's own words: no control character of theirs reaches the terminal.
  else io.stdout.write(renderInspection(printableDeep(report, 5), useColor(io.stdout, io.env)));
  const usableAsTools = (report.configured?.tools.length ?? 0) > 0 && report.configured!.tools.every((t) => report.toolExports.includes(t));
  return report.describe.ok || usableAsTools ? EXIT.OK : EXIT.ERROR;
}

function configured(entry: PluginEntry, sha256: string): NonNullable<Inspection['configured']> {
  return {
    pin: entry.sha256?.toLowerCase() ?? null,
    pinMatches: entry.sha256 ? entry.sha256.toLowerCase() === sha256 : null,
    grants: entry.grants ?? {},
    wasi: wasiGrant(entry.wasi),
    tools: (entry.tools ?? []).map((t) => t.export ?? t.name),
  };
}

function renderConfigured(c: NonNullable<Inspection['configured']>, p: ReturnType<typeof palette>): string[] {
  const lines = ['', p.bold('granted by wasmhooks.json')];
  lines.push(`  pin            ${c.pin ? `${c.pin} (${c.pinMatches ? 'matches' : p.red('does NOT match')})` : 'none'}`);
  const g = c.grants;
  if (g.networkHosts?.length) lines.push(`  network hosts  ${g.networkHosts.join(', ')}`);
  if (g.filePaths) lines.push(`  file paths     ${Array.isArray(g.filePaths) ? g.filePaths.join(', ') : Object.entries(g.filePaths).map(([h, v]) => `${h} → ${v}`).join(', ')}`);
  if (g.configKeys?.length) lines.push(`  config keys    ${g.configKeys.join(', ')}`);
  if (g.hostFunctions?.length) lines.push(`  host functions ${g.hostFunctions.join(', ')}`);
  if (c.wasi) {
    const dirs = Object.entries(c.wasi.preopens).map(([guest, host]) => `${guest} → ${host} (read-only)`);
    lines.push(`  wasi           args [${c.wasi.args.join(' ')}], env [${c.wasi.env.join(' ')}], dirs [${dirs.join(', ')}]`);
  } else lines.push('  wasi           off');
  if (c.tools.length) lines.push(`  as tools       ${c.tools.join(', ')}`);
  return lines;
}

/** The declared signature of a host function import (for inspection stubs). */
function functionSignature(bytes: Uint8Array, name: string): Pick<HostFunctions[string], 'params' | 'results'> {
  const found = functionImports(bytes).find((i) => i.module === USER_MODULE && i.name === name);
  const plain = (t: string) => (['i32', 'i64', 'f32', 'f64'].includes(t) ? (t as 'i32') : 'i64');
  return { params: (found?.params ?? []).map(plain), results: (found?.results ?? []).map(plain).slice(0, 1) };
}
