/**
 * `wasmhooks plugin test <plugin> --events <file.jsonl> [--against <other>]`:
 * replays recorded hook inputs (from `run --record`) through a plugin and
 * prints each decision with its time and fuel; with `--against`, runs a
 * second build too and reports every input on which the two decide differently.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { pluginOptions } from '../../config/entry.js';
import { messageOf } from '../../errors.js';
import { LineLimitError, readLines, type LineLimits } from '../../lines.js';
import type { EmittedEvent } from '../../events/types.js';
import { dispatch } from '../../hooks/dispatch.js';
import { HookRegistry } from '../../hooks/registry.js';
import { HOOK_EVENT_NAMES, type HookInput } from '../../hooks/types.js';
import { loadPlugin } from '../../plugins/load.js';
import type { PluginOptions } from '../../plugins/options.js';
import type { WasmPlugin } from '../../plugins/plugin.js';
import { CliError, EXIT, type ExitCode } from '../exit.js';
import { count, inputLabel, ms, truncate } from '../format.js';
import { printable } from '../printable.js';
import { palette, useColor, type CliIO } from '../io.js';
import { readPluginBytes } from '../plugin-source.js';
import { expectationSchema, unmet, type Expectation, type Verdict } from '../expect.js';

export type { Verdict } from '../expect.js';
import { inspectBytes } from './inspect.js';
import { readConfig } from '../setup.js';
import { checkEntryTrust } from '../workspace-trust.js';
import { recordedInput } from '../record.js';

export interface ReplayFlags {
  events: string;
  /** Config whose entry for this plugin's path supplies limits, grants and config (default ./wasmhooks.json). */
  config?: string;
  against?: string;
  json?: boolean;
  /** Also list inputs no binding of the plugin(s) matches. */
  all?: boolean;
  grantRequested?: boolean;
  timeoutMs?: number;
  fuel?: number;
}

/** One plugin's answer to one input. */

const inputSchema = z.looseObject({
  hook_event_name: z.enum(HOOK_EVENT_NAMES, { error: 'expected a hook input with a known hook_event_name' }),
  session_id: z.string(),
  cwd: z.string(),
  /** A PreToolUse re-check's mark, sent to the plugin as ToolUsePayload.recheck. */
  recheck: z.boolean({ error: 'expected recheck to be true or false (a recorded PreToolUse re-check has true)' }).optional(),
});

interface ReplayCase {
  line: number;
  input: HookInput;
  expect?: Expectation;
}

const caseSchema = z.object({ input: z.unknown(), expect: expectationSchema }).strict();

/** What `--events` may hold: read a line at a time, never whole (each case is kept for the run). */
const EVENTS_LIMITS: LineLimits = { maxBytes: 256 << 20, maxLineBytes: 64 << 20, maxLines: 100_000 };

/** Parses a `run --record` file (or a cases file with expectations); line numbers are 1-based. */
async function readEvents(path: string): Promise<ReplayCase[]> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new CliError(`--events ${path}: ${messageOf(error)}`, EXIT.USAGE);
  }
  const out: ReplayCase[] = [];
  try {
    for await (const { number, text: raw } of readLines(handle, EVENTS_LIMITS)) out.push(...readCase(path, number, raw));
  } catch (error) {
    if (error instanceof LineLimitError) throw new CliError(`${path}${error.line > 0 ? `:${error.line}` : ''}: --events ${error.message}; split the file`, EXIT.USAGE);
    if (error instanceof CliError) throw error;
    throw new CliError(`--events ${path}: ${messageOf(error)}`, EXIT.USAGE);
  } finally {
    await handle.close();
  }
  if (out.length === 0) throw new CliError(`--events ${path} holds no hook inputs`, EXIT.USAGE);
  return out;
}

/** One line of an events file: a hook input, or a case (`{ input, expect }`); a blank line is none. */
function readCase(path: string, line: number, raw: string): ReplayCase[] {
  if (raw.trim() === '') return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new CliError(`${path}:${line}: not JSON (${messageOf(error)})`, EXIT.USAGE);
  }
  const wrapped = json !== null && typeof json === 'object' && 'input' in json;
  const parsed = wrapped ? caseSchema.safeParse(json) : undefined;
  if (parsed && !parsed.success) throw lineError(path, line, parsed.error);
  const input = inputSchema.safeParse(parsed?.success ? parsed.data.input : json);
  if (!input.success) throw lineError(path, line, input.error, parsed ? ['input'] : []);
  return [{ line, input: recordedInput(input.data), ...(parsed?.success ? { expect: parsed.data.expect } : {}) }];
}

function lineError(path: string, line: number, error: z.ZodError, prefix: PropertyKey[] = []): CliError {
  const issue = error.issues[0]!;
  const at = [...prefix, ...issue.path].join('.') || 'line';
  return new CliError(`${path}:${line}: ${at}: ${issue.message}; record inputs with wasmhooks run --record`, EXIT.USAGE);
}

/**
 * Options from the config entry for this plugin's path (the same
 * `pluginOptions` the config loader uses), so the replay runs the plugin as
 * the host would.
 * Both builds of an `--against` run share them, for a fair comparison.
 */
async function configuredOptions(refs: string[], flags: ReplayFlags, io: CliIO): Promise<PluginOptions> {
  const config = await readConfig(flags.config ? { config: flags.config } : {}, io);
  const paths = refs.map((r) => resolve(io.cwd, r));
  const entry = paths.map((p) => config?.plugins?.find((e) => e.path === p)).find((e) => e !== undefined);
  if (config && entry) await checkEntryTrust(config, entry, io.env, io.cwd);
  return entry ? pluginOptions(entry) : {};
}

async function load(ref: string, base: PluginOptions, flags: ReplayFlags, io: CliIO): Promise<WasmPlugin> {
  const source = await readPluginBytes(ref, io.cwd);
  const requested = flags.grantRequested ? await requestedGrants(ref, source.bytes, source.sha256) : undefined;
  const limits = { ...base.limits, ...(flags.timeoutMs ? { timeoutMs: flags.timeoutMs } : {}), ...(flags.fuel ? { fuel: flags.fuel } : {}) };
  const options: PluginOptions = { ...base, limits, ...(requested ? { grants: requested } : {}) };
  try {
    return await loadPlugin(source.path ? { path: source.path } : { bytes: source.bytes as Uint8Array<ArrayBuffer> }, options);
  } catch (error) {
    const hint = /asks for more than it was granted/.test(messageOf(error)) ? ' (pass --grant-requested to grant what it asks for during the test)' : '';
    throw new CliError(`${ref}: ${messageOf(error)}${hint}`);
  }
}

async function requestedGrants(ref: string, bytes: Uint8Array, sha256: string) {
  const report = await inspectBytes(ref, bytes, sha256);
  return report.describe.ok ? report.describe.info.grants : undefined;
}

/**
 * What `plugin` decides for `input`, as a host with only this plugin would: every binding whose
 * event and matcher accept the input, chained by the host's rules (the guest answers per binding).
 * The first failure, if any, is the verdict (before the failure policy turns it into a decision).
 */
export async function verdictOf(plugin: WasmPlugin, input: HookInput): Promise<Verdict> {
  const registry = new HookRegistry();
  for (const h of plugin.hooks()) registry.addHandler(h);
  const ends: Array<Extract<EmittedEvent, { type: 'hook.end' }>> = [];
  const emit = (e: EmittedEvent) => void (e.type === 'hook.end' && ends.push(e));
  const started = performance.now();
  const out = await dispatch({ registry, emit, signal: new AbortController().signal }, input.hook_event_name, () => input as never);
  const durationMs = performance.now() - started;
  if (ends.length === 0) return { kind: 'unbound' };
  const fuelUsed = ends.reduce((sum, e) => sum + (e.fuelUsed ?? 0), 0);
  const fuel = ends.some((e) => e.fuelUsed !== undefined) ? { fuelUsed } : {};
  const failed = ends.find((e) => e.failure);
  if (failed?.failure) return { kind: 'failed', code: failed.failure.code, message: failed.failure.message, durationMs, ...fuel };
  return {
    kind: 'decided',
    decision: out.decision,
    ...(out.reason ? { reason: out.reason } : {}),
    ...(out.updatedInput ? { updatedInput: out.updatedInput } : {}),
    ...(out.updatedOutput !== undefined ? { updatedOutput: out.updatedOutput } : {}),
    durationMs,
    ...fuel,
  };
}

/** What must match for two verdicts to count as the same: the decision, rewrites, the failure code. Reasons may differ. */
function key(v: Verdict): string {
  switch (v.kind) {
    case 'unbound':
      return 'unbound';
    case 'decided':
      return JSON.stringify([v.decision, v.updatedInput ?? null, v.updatedOutput ?? null]);
    case 'failed':
      return `failed:${v.code}`;
    default: {
      const never: never = v;
      return never;
    }
  }
}

function describeVerdict(v: Verdict): string {
  switch (v.kind) {
    case 'unbound':
      return 'not bound';
    case 'decided': {
      const rewrite = v.updatedInput ? ` +rewrite ${truncate(JSON.stringify(v.updatedInput), 40)}` : '';
      return `${v.decision}${rewrite}${v.reason ? ` ${JSON.stringify(truncate(v.reason, 60))}` : ''}`;
    }
    case 'failed':
      return `FAILED ${v.code}: ${truncate(v.message, 60)}`;
    default: {
      const never: never = v;
      return never;
    }
  }
}

const cost = (v: Verdict) => (v.kind === 'unbound' ? '' : `${ms(v.durationMs)}${v.fuelUsed !== undefined ? `, ${count(v.fuelUsed)} fuel` : ''}`);

export async function replayCommand(pluginRef: string, flags: ReplayFlags, io: CliIO): Promise<ExitCode> {
  const events = await readEvents(resolve(io.cwd, flags.events));
  const base = await configuredOptions([pluginRef, ...(flags.against ? [flags.against] : [])], flags, io);
  const a = await load(pluginRef, base, flags, io);
  const b = flags.against ? await load(flags.against, base, flags, io).catch(async (e: unknown) => { await a.close(); throw e; }) : undefined;
  const p = palette(useColor(io.stdout, io.env));
  let differences = 0;
  let bound = 0;
  let expectations = 0;
  let failedExpectations = 0;
  const totals = [pluginRef, flags.against ?? ''].map((name) => ({ name, ms: 0, fuel: 0 }));
  const tally = (i: 0 | 1, v: Verdict) => {
    if (v.kind === 'unbound') return;
    totals[i]!.ms += v.durationMs;
    totals[i]!.fuel += v.fuelUsed ?? 0;
  };
  try {
    for (const { line, input, expect } of events) {
      const va = await verdictOf(a, input);
      const vb = b ? await verdictOf(b, input) : undefined;
      if (va.kind !== 'unbound' || (vb && vb.kind !== 'unbound')) bound++;
      tally(0, va);
      if (vb) tally(1, vb);
      const differs = vb !== undefined && key(va) !== key(vb);
      if (differs) differences++;
      const problems = expect ? unmet(expect, va) : [];
      if (expect) expectations++;
      if (problems.length > 0) failedExpectations++;
      if (flags.json) {
        io.stdout.write(
          `${JSON.stringify({ line, event: input.hook_event_name, label: inputLabel(input), verdict: va, ...(vb ? { against: vb, differs } : {}), ...(expect ? { expect, unmet: problems } : {}) })}\n`,
        );
        continue;
      }
      if (!differs && !expect && !flags.all && va.kind === 'unbound' && (!vb || vb.kind === 'unbound')) continue;
      const label = `${String(line).padStart(4)}  ${truncate(inputLabel(input), 48).padEnd(48)}`;
      const show = (v: Verdict) => {
        const text = describeVerdict(v);
        const coloured = v.kind === 'failed' ? p.red(text) : v.kind === 'unbound' ? p.dim(text) : v.decision === 'deny' || v.decision === 'stop' ? p.yellow(text) : text;
        return `${coloured}${v.kind === 'unbound' ? '' : p.dim(` (${cost(v)})`)}`;
      };
      const mark = expect ? (problems.length ? p.red('✗') : p.green('✓')) : differs ? p.red('≠') : vb ? p.dim('=') : ' ';
      io.stdout.write(`${mark}${label}  ${show(va)}${differs ? `  ${p.red('vs')}  ${show(vb!)}` : ''}\n`);
      // A problem quotes the plugin's reason and rewrite as JSON, which leaves C1 and bidi controls as they are (rv13).
      for (const problem of problems) io.stdout.write(`${' '.repeat(7)}${p.red(printable(problem))}\n`);
    }
  } finally {
    await Promise.all([a.close(), b?.close()]);
  }
  const summary = [
    `${events.length} inputs replayed, ${bound} bound`,
    ...(b ? [`${differences} decided differently`] : []),
    ...(expectations ? [`${expectations - failedExpectations}/${expectations} expectations met`] : []),
  ].join(', ');
  // What each build cost in all, so a new version's price shows beside its decisions.
  const costs = (b ? totals : totals.slice(0, 1)).map((t) => `${t.name}: ${ms(t.ms)}, ${count(t.fuel)} fuel`).join(' · ');
  if (flags.json) io.stderr.write(`${summary}\n${costs}\n`);
  else io.stdout.write(`${p.dim('── ')}${differences || failedExpectations ? p.red(summary) : summary}\n${p.dim(`   ${costs}`)}\n`);
  return differences > 0 || failedExpectations > 0 ? EXIT.DIFFERENT : EXIT.OK;
}
