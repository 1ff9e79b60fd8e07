// One table of a plugin's limits through every place a person writes them: createSandbox, createRawSandbox (its
// three limits), loadPlugin's options and a wasmhooks.json plugin entry (parseConfig). All four read one schema
// (host/sandbox/limits-schema.ts), so each row gets one verdict, and a refusal says the same line (the limit's
// path, what was expected, what it got) after each entry point's own prefix. The one difference: createSandbox
// and createRawSandbox also take Infinity for timeoutMs and fuel (no deadline, no fuel cap), and say so.
// Shared by test/sandbox/limits-schema.test.ts (host/) and test/xrt/plugins.xrt.ts (dist/ on Node, Deno and
// Bun), so only type imports from host/.
import type { createRawSandbox as CreateRawSandbox, createSandbox as CreateSandbox } from '../../host/index.js';
import { failure, lookup, optionVerdicts, type PluginOptionApi, type Verdict } from '../plugins/plugin-option-cases.ts';

export interface LimitApi extends PluginOptionApi {
  createSandbox: typeof CreateSandbox;
  createRawSandbox: typeof CreateRawSandbox;
}

interface LimitRow {
  title: string;
  limits: unknown;
  /** Refused: the limit (below `limits`; '' for `limits` itself) and what every message says. */
  refused?: { at: string; says: RegExp };
  /** Infinity for timeoutMs or fuel: accepted by the sandbox API, refused by a plugin's options as `refused` says. */
  sandboxAccepts?: true;
}

const positive = (got: string) => new RegExp(`: expected a positive integer, got ${got.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
const bad = (title: string, limits: Record<string, unknown>, got: string, says = positive(got)): LimitRow => ({ title, limits, refused: { at: Object.keys(limits)[0]!, says } });
const OBJECT = /: expected an object of limits \(\{ "timeoutMs": …, "fuel": … \}\), got /;

export const LIMIT_ROWS: readonly LimitRow[] = [
  { title: 'none given', limits: {} },
  {
    title: 'every one, at its bounds',
    limits: { timeoutMs: 60_000, fuel: 1e12, maxMemoryPages: 65_536, maxInputBytes: 1, maxOutputBytes: 1 << 20, maxVarBytes: 1, maxVars: 1, maxLogBytes: 1, maxProgressBytes: 1, maxTableElements: 10_000_000 },
  },
  { title: 'the largest exact fuel (2^53 - 1)', limits: { fuel: Number.MAX_SAFE_INTEGER } },
  { title: 'a limit given as undefined (not given)', limits: { timeoutMs: undefined } },
  { title: 'no deadline (Infinity)', limits: { timeoutMs: Infinity }, sandboxAccepts: true, refused: { at: 'timeoutMs', says: positive('Infinity') } },
  { title: 'no fuel cap (Infinity)', limits: { fuel: Infinity }, sandboxAccepts: true, refused: { at: 'fuel', says: positive('Infinity') } },
  bad('a zero timeout', { timeoutMs: 0 }, '0'),
  bad('a fractional timeout', { timeoutMs: 2.5 }, '2.5'),
  bad('a timeout of -Infinity', { timeoutMs: -Infinity }, '-Infinity'),
  bad('a NaN timeout', { timeoutMs: Number.NaN }, 'NaN'),
  bad('a timeout as a string', { timeoutMs: '50' }, '"50"'),
  bad('a timeout as a bigint', { timeoutMs: 10n }, '10n'),
  bad('a negative fuel', { fuel: -1 }, '-1'),
  bad('a fractional fuel', { fuel: 0.5 }, '0.5'),
  bad('fuel past 2^53 (not exact)', { fuel: 2 ** 53 + 2 }, '9007199254740994'),
  bad('a fraction of a page', { maxMemoryPages: 1.5 }, '1.5'),
  bad('no memory', { maxMemoryPages: 0 }, '0'),
  bad('more than 4 GiB of memory', { maxMemoryPages: 65_537 }, '65537', /: expected at most 65536 \(4 GiB\), got 65537$/),
  bad('unbounded memory', { maxMemoryPages: Infinity }, 'Infinity'),
  bad('input bytes as a string', { maxInputBytes: '5' }, '"5"'),
  bad('output bytes null', { maxOutputBytes: null }, 'null'),
  bad('no variable bytes', { maxVarBytes: 0 }, '0'),
  bad('negative variables', { maxVars: -3 }, '-3'),
  bad('fractional log bytes', { maxLogBytes: 1.25 }, '1.25'),
  bad('progress bytes as a boolean', { maxProgressBytes: true }, 'true'),
  bad('zero table elements', { maxTableElements: 0 }, '0'),
  bad('a negative table cap', { maxTableElements: -1 }, '-1'),
  bad('more than 10M table elements', { maxTableElements: 10_000_001 }, '10000001', /: expected at most 10000000, got 10000001$/),
  bad('an unknown limit', { timeout: 5 }, '', /: unknown field \(check its spelling, or remove it\)$/),
  { title: 'a number', limits: 5, refused: { at: '', says: OBJECT } },
  { title: 'an array', limits: [], refused: { at: '', says: OBJECT } },
  { title: 'null', limits: null, refused: { at: '', says: OBJECT } },
];

/** The keys createRawSandbox takes: a row limited to them runs through it too. */
const RAW_KEYS = ['timeoutMs', 'fuel', 'maxMemoryPages'];
const rawTakes = (limits: unknown) => typeof limits !== 'object' || limits === null || Object.keys(limits).every((k) => RAW_KEYS.includes(k));

/** What a refusal says after the entry point's own prefix: from `limits` on (`limits.fuel: expected …, got -1`). */
function line(verdict: Verdict, code: string, prefix: string): string | undefined {
  if (verdict.ok || verdict.code !== code) return undefined;
  const at = verdict.message.indexOf(prefix);
  return at < 0 ? undefined : verdict.message.slice(at + prefix.length);
}

const settle = (p: Promise<unknown>): Promise<Verdict> => p.then(() => ({ ok: true as const }), (error: unknown) => ({ ok: false as const, ...failure(error) }));

/** What is wrong, row by row (empty when all four agree with the row). */
export async function limitProblems(api: LimitApi): Promise<string[]> {
  const problems: string[] = [];
  for (const row of LIMIT_ROWS) {
    const name = JSON.stringify(row.title);
    const { config, loaded } = await optionVerdicts(api, { limits: row.limits });
    const sandbox = await settle(api.createSandbox(api.vowels, { hostFunctions: { lookup }, limits: row.limits as never }).then((s) => s.close()));
    const raw = rawTakes(row.limits) ? await settle(api.createRawSandbox(api.vowels, { limits: row.limits as never })) : undefined;
    const said = (v: Verdict) => (v.ok ? 'accepted' : `refused (${v.code}: ${v.message})`);
    const lines = {
      config: line(config, 'INVALID_CONFIG', 'wasmhooks.json: plugins[0].'),
      loadPlugin: line(loaded, 'INVALID_OPTIONS', 'invalid options for plugin <bytes>: '),
      createSandbox: line(sandbox, 'INVALID_OPTIONS', 'invalid sandbox options: '),
      createRawSandbox: raw && line(raw, 'INVALID_OPTIONS', 'invalid raw sandbox options: '),
    };
    const plugin = { config, loadPlugin: loaded };
    const sandboxes: Record<string, Verdict> = raw ? { createSandbox: sandbox, createRawSandbox: raw } : { createSandbox: sandbox };
    const path = row.refused ? `limits${row.refused.at ? `.${row.refused.at}` : ''}` : '';
    const check = (verdicts: Record<string, Verdict>, refused: boolean) => {
      for (const [where, verdict] of Object.entries(verdicts)) {
        if (verdict.ok === refused) {
          problems.push(`${name}: ${where} ${said(verdict)}, expected ${refused ? 'refused' : 'accepted'}`);
          continue;
        }
        if (!refused) continue;
        // The sandbox API's budgets say they also take Infinity; otherwise every line is the same.
        const text = lines[where as keyof typeof lines];
        const budget = row.refused!.at === 'timeoutMs' || row.refused!.at === 'fuel';
        const wantsInfinity = budget && where.startsWith('create');
        const plain = text?.replace(' or Infinity,', ',');
        if (text === undefined || !plain!.startsWith(`${path}: `) || !row.refused!.says.test(plain!) || wantsInfinity !== text.includes('or Infinity')) {
          problems.push(`${name}: ${where} said ${said(verdict)}`);
        }
      }
    };
    check(plugin, row.refused !== undefined);
    check(sandboxes, row.refused !== undefined && !row.sandboxAccepts);
  }
  return problems;
}
