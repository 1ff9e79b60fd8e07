/** The one table every run prints (markdown, so README can carry it as is). */
import type { Figure, Row } from './rows/row.js';

const num = (n: number): string =>
  !Number.isFinite(n) ? '—' : Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(2);

function cells(r: Row): string[] {
  const p99 = r.ours.p99 !== undefined && Number.isFinite(r.ours.p99) ? ` (p99 ${num(r.ours.p99)})` : '';
  const cpu = (f: Figure) => (f.clock === 'cpu' ? ' cpu' : '');
  const ours = Number.isFinite(r.ours.value) ? `${num(r.ours.value)} ${r.ours.unit}${cpu(r.ours)}${p99}` : 'failed';
  const anchor = r.anchor ? (Number.isFinite(r.anchor.value) ? `${num(r.anchor.value)} ${r.anchor.unit}${cpu(r.anchor)} (${r.anchorName ?? 'anchor'})` : `failed (${r.anchorName ?? 'anchor'})`) : '—';
  const ratio = r.ratio === undefined ? '—' : `${r.ratio < 10 ? r.ratio.toFixed(3) : num(r.ratio)}× ${r.ratioOf === 'anchor/ours' ? 'faster' : ''}`.trim();
  const target = r.target ? `${r.target.op === 'max' ? '≤' : '≥'} ${r.target.value}×${r.ratioOf === 'anchor/ours' || r.target.op === 'min' ? ' faster' : ''}` : '—';
  const pass = r.pass === undefined ? '' : r.pass ? 'pass' : 'MISS';
  return [r.group, r.what, ours, anchor, ratio, target, pass, r.runtime];
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
  'Every ratio compares two medians measured side by side in the same run (interleaved rounds); the machine is shared and noisy, so absolute figures drift and the ratios are what count. ratio = ours/anchor, or anchor/ours where it says "faster". p99 is of per-sample times (batch means for sub-µs rows). "cpu": the figure is this process\'s CPU time, not elapsed time (long samples on a machine with more runnable processes than cores).';

