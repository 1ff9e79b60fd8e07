/**
 * Row group 9: the tool-name matcher (host/hooks/matcher.ts), the cost of
 * running every hook's matcher in linear time.
 * - `test()` per tool name for a regex matcher (re2js) and a name list (the
 *   exact-name fast path), against the same pattern as a native RegExp.
 * - A hostile `(a+)+b` against a 22-character name: re2js against the native
 *   backtracking RegExp (which needs hours at 40 characters; 22 keeps the
 *   anchor measurable).
 */
import { parseToolMatcher, type ToolMatcher } from '../../host/hooks/matcher.js';
import { compare, runtimeName } from '../harness.js';
import { makeRow, type Row, type RowsFn } from './row.js';

const NAMES = ['Bash', 'mcp__github__create_issue', 'NotebookEdit', 'Write'];
const BATCH = 1000;

function compiled(pattern: string): ToolMatcher {
  const parsed = parseToolMatcher(pattern);
  if (!parsed.ok || !parsed.matcher) throw new Error(`bench matcher: ${pattern} did not compile`);
  return parsed.matcher;
}

/** BATCH tests over NAMES; the sink keeps the results alive. */
function batch(test: (name: string) => boolean): () => void {
  let sink = 0;
  return () => {
    for (let i = 0; i < BATCH; i++) if (test(NAMES[i & 3]!)) sink++;
    if (sink < 0) throw new Error('unreachable');
  };
}

export const run: RowsFn = async ({ quick }) => {
  const runtime = runtimeName();
  const rows: Row[] = [];
  const regex = 'mcp__.*|Notebook.*';
  const list = 'Read|Write|Edit|MultiEdit|NotebookEdit|Glob|Grep|LS';
  const re = compiled(regex);
  const names = compiled(list);
  const nativeRe = new RegExp(`^(?:${regex})$`);
  const nativeList = new RegExp(`^(?:${list})$`);
  const opts = { samples: quick ? 100 : 400, warmup: 20, maxMs: quick ? 1_500 : 4_000, rounds: 10 };
  const r = await compare(
    {
      re2: batch((n) => re.test(n)),
      nativeRe: batch((n) => nativeRe.test(n)),
      names: batch((n) => names.test(n)),
      nativeList: batch((n) => nativeList.test(n)),
    },
    opts,
  );
  const perTest = (us: number) => (us * 1000) / BATCH;
  rows.push(
    makeRow('matcher', runtime, {
      what: `matcher test() per tool name, regex ${JSON.stringify(regex)} (re2js)`,
      ours: { value: perTest(r.re2.median), unit: 'ns', p99: perTest(r.re2.p99) },
      anchorName: 'the same pattern as a native RegExp',
      anchor: { value: perTest(r.nativeRe.median), unit: 'ns', p99: perTest(r.nativeRe.p99) },
      note: 'the price of linear time; a hook call costs microseconds, so this is per hook, not per call of the guest',
    }),
    makeRow('matcher', runtime, {
      what: `matcher test() per tool name, name list (8 names, exact-name fast path)`,
      ours: { value: perTest(r.names.median), unit: 'ns', p99: perTest(r.names.p99) },
      anchorName: 'the same list as a native RegExp',
      anchor: { value: perTest(r.nativeList.median), unit: 'ns', p99: perTest(r.nativeList.p99) },
    }),
  );

  const hostile = compiled('(a+)+b');
  const nativeHostile = /^(?:(a+)+b)$/;
  const name = 'a'.repeat(22);
  const h = await compare(
    { re2: () => hostile.test(name), native: () => nativeHostile.test(name) },
    { samples: quick ? 5 : 15, warmup: 1, maxMs: quick ? 2_000 : 6_000, rounds: 5 },
  );
  rows.push(
    makeRow('matcher', runtime, {
      what: `hostile matcher (a+)+b against a ${name.length}-character name (re2js)`,
      ours: { value: h.re2.median, unit: 'µs', p99: h.re2.p99 },
      anchorName: 'native RegExp (backtracking; ×2 per extra character)',
      anchor: { value: h.native.median, unit: 'µs', p99: h.native.p99 },
      ratioOf: 'anchor/ours',
      note: 'the RegExp figure doubles per added character; re2js stays linear (40 characters: hours vs microseconds)',
    }),
  );
  return rows;
};
