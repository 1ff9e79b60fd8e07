/** The one table every run prints (markdown, so README can carry it as is). */
import type { Figure, Row, Target } from './rows/row.js';

const num = (n: number): string =>
  !Number.isFinite(n) ? '—' : Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(2);

function cells(r: Row): string[] {
  const tail = (name: string, v: number | undefined) => (v !== undefined && Number.isFinite(v) ? ` (${name} ${num(v)})` : '');
  const p99 = r.ours.p95 !== undefined ? tail('p95', r.ours.p95) : tail('p99', r.ours.p99);
  const cpu = (f: Figure) => (f.clock === 'cpu' ? ' cpu' : '');
  const ours = Number.isFinite(r.ours.value) ? `${num(r.ours.value)} ${r.ours.unit}${cpu(r.ours)}${p99}` : 'failed';
  const anchor = r.anchor ? (Number.isFinite(r.anchor.value) ? `${num(r.anchor.value)} ${r.anchor.unit}${cpu(r.anchor)} (${r.anchorName ?? 'anchor'})` : `failed (${r.anchorName ?? 'anchor'})`) : '—';
  const ratio = r.ratio === undefined ? '—' : `${r.ratio < 10 ? r.ratio.toFixed(3) : num(r.ratio)}× ${r.ratioOf === 'anchor/ours' ? 'faster' : ''}`.trim();
  const target = r.target ? targetCell(r.target, r.ratioOf) : '—';
  const pass = r.pass === undefined ? '' : r.pass ? 'pass' : 'MISS';
  return [r.group, r.what, ours, anchor, ratio, target, pass, r.runtime];
}

function targetCell(t: Target, ratioOf: Row['ratioOf']): string {
  switch (t.op) {
    case 'within':
      return `${num(t.value)} ${t.unit} ± ${Math.round(t.tolerance * 100)}%`;
    case 'atMost':
      return `≤ ${num(t.value)} ${t.unit}`;
    case 'max':
    case 'min':
      return `${t.op === 'max' ? '≤' : '≥'} ${t.value}×${ratioOf === 'anchor/ours' || t.op === 'min' ? ' faster' : ''}`;
    default: {
      const never: never = t;
      throw new Error(`unknown target ${JSON.stringify(never)}`);
    }
  }
}

export function table(rows: readonly Row[]): string {
  const head = ['group', 'row', 'ours (median)', 'anchor (median)', 'ratio', 'target', 'pass/miss', 'runtime'];
  const body = rows.map(cells);
  const lines = [head, head.map(() => '---'), ...body].map((c) => `| ${c.join(' | ')} |`);
  // One line per distinct note, naming the runtimes it came from when the table has several.
  const runtimes = new Set(rows.map((r) => r.runtime));
  const byNote = new Map<string, string[]>();
  for (const r of rows) {
    if (!r.note) continue;
    const key = `- ${r.group} / ${r.what}: ${r.note}`;
    byNote.set(key, [...(byNote.get(key) ?? []), r.runtime]);
  }
  const notes = [...byNote].map(([key, on]) => (runtimes.size > 1 && on.length < runtimes.size ? `${key} [${on.join(', ')}]` : key));
  return [...lines, ...(notes.length ? ['', ...notes] : [])].join('\n');
}

export const FOOTER =
  'Every ratio compares two medians measured side by side in the same run (interleaved rounds); the machine is shared and noisy, so absolute figures drift and the ratios are what count. ratio = ours/anchor, or anchor/ours where it says "faster". p99 is of per-sample times (batch means for sub-µs rows); p95 where a row has few samples. "cpu": the figure is this process\'s CPU time, not elapsed time (long samples on a machine with more runnable processes than cores).';

