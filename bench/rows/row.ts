/** The shape of one table row, shared by every group of rows and by run.ts. */
import type { Stats } from '../harness.js';

export const GROUPS = ['dispatch', 'deadline', 'fuel', 'load', 'cold', 'bus', 'loop', 'sse', 'store', 'memory', 'guests', 'matcher', 'anylang'] as const;
export type Group = (typeof GROUPS)[number];

export interface Figure {
  /** Median unless the row says otherwise; NaN when the measurement failed (see `note`). */
  value: number;
  unit: string;
  p99?: number;
  /** For rows with few samples (the deadline rows), shown instead of p99. */
  p95?: number;
  /** Set when the figure is CPU time of this process rather than elapsed time. */
  clock?: 'cpu';
}

/**
 * `max`: the ratio must be at most `value`; `min`: at least.
 * `within`: our own figure (not a ratio) must lie within `value` ± `tolerance`
 * (a fraction of `value`), in the figure's unit; for rows with no anchor.
 * `atMost`: our own figure must be at most `value`, in `unit` (an absolute
 * budget, such as a cold start's 100 ms; the anchor's ratio is shown beside it).
 */
export type Target =
  | { op: 'max' | 'min'; value: number }
  | { op: 'within'; value: number; unit: string; tolerance: number }
  | { op: 'atMost'; value: number; unit: string };

export interface Row {
  group: Group;
  what: string;
  ours: Figure;
  anchorName?: string;
  anchor?: Figure;
  /** `ours/anchor` for costs; `anchor/ours` for "N× faster than" targets. */
  ratioOf?: 'ours/anchor' | 'anchor/ours';
  ratio?: number;
  target?: Target;
  pass?: boolean;
  runtime: string;
  note?: string;
}

export interface RowInput {
  what: string;
  ours: Figure;
  anchorName?: string;
  anchor?: Figure;
  ratioOf?: 'ours/anchor' | 'anchor/ours';
  target?: Target;
  note?: string;
}

const TIME: Record<string, number> = { ns: 1e-3, 'µs': 1, ms: 1e3, s: 1e6 };

/** A figure's value in a unit comparable with another's (time units are converted; others must match). */
function comparable(f: Figure, other: Figure): number {
  if (f.unit === other.unit) return f.value;
  const a = TIME[f.unit];
  if (a === undefined || TIME[other.unit] === undefined) throw new Error(`cannot compare ${f.unit} with ${other.unit}`);
  return f.value * a;
}

/** Fills in ratio and pass from the figures. */
export function makeRow(group: Group, runtime: string, r: RowInput): Row {
  const row: Row = { group, runtime, ...r };
  if (r.target?.op === 'within') {
    const t = r.target;
    if (r.ours.unit !== t.unit) throw new Error(`row "${r.what}": target in ${t.unit}, figure in ${r.ours.unit}`);
    row.pass = Number.isFinite(r.ours.value) && Math.abs(r.ours.value - t.value) <= t.value * t.tolerance;
  }
  if (r.target?.op === 'atMost') {
    if (r.ours.unit !== r.target.unit) throw new Error(`row "${r.what}": target in ${r.target.unit}, figure in ${r.ours.unit}`);
    row.pass = Number.isFinite(r.ours.value) && r.ours.value <= r.target.value;
  }
  if (r.anchor && Number.isFinite(r.anchor.value) && Number.isFinite(r.ours.value) && r.anchor.value > 0 && r.ours.value > 0) {
    const of = r.ratioOf ?? 'ours/anchor';
    row.ratioOf = of;
    const ours = comparable(r.ours, r.anchor);
    const anchor = comparable(r.anchor, r.ours);
    row.ratio = of === 'ours/anchor' ? ours / anchor : anchor / ours;
    if (r.target && (r.target.op === 'max' || r.target.op === 'min')) row.pass = r.target.op === 'max' ? row.ratio <= r.target.value : row.ratio >= r.target.value;
  } else if (r.target && (r.target.op === 'max' || r.target.op === 'min')) {
    row.pass = false;
  }
  return row;
}

/** A figure from harness statistics (which are in µs), in the unit asked for. */
export const fig = (s: Stats, unit: 'µs' | 'ms' | 'ns' = 'µs', clock: 'wall' | 'cpu' = 'wall'): Figure => {
  const k = unit === 'ms' ? 1e-3 : unit === 'ns' ? 1e3 : 1;
  return { value: s.median * k, unit, p99: s.p99 * k, ...(clock === 'cpu' ? { clock } : {}) };
};

export type RowsFn = (options: { quick: boolean }) => Promise<Row[]>;
