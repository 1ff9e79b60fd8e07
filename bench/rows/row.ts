/** The shape of one table row, shared by every group of rows and by run.ts. */
import type { Stats } from '../harness.js';

export const GROUPS = ['dispatch', 'fuel', 'load', 'bus', 'loop', 'sse', 'memory'] as const;
export type Group = (typeof GROUPS)[number];

export interface Figure {
  /** Median unless the row says otherwise; NaN when the measurement failed (see `note`). */
  value: number;
  unit: string;
  p99?: number;
}

/** `max`: the ratio must be at most `value`; `min`: at least. */
export interface Target {
  op: 'max' | 'min';
  value: number;
}

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

/** Fills in ratio and pass from the figures. */
export function makeRow(group: Group, runtime: string, r: RowInput): Row {
  const row: Row = { group, runtime, ...r };
  if (r.anchor && Number.isFinite(r.anchor.value) && Number.isFinite(r.ours.value) && r.anchor.value > 0 && r.ours.value > 0) {
    const of = r.ratioOf ?? 'ours/anchor';
    row.ratioOf = of;
    row.ratio = of === 'ours/anchor' ? r.ours.value / r.anchor.value : r.anchor.value / r.ours.value;
    if (r.target) row.pass = r.target.op === 'max' ? row.ratio <= r.target.value : row.ratio >= r.target.value;
  } else if (r.target) {
    row.pass = false;
  }
  return row;
}

/** A figure from harness statistics. */
export const fig = (s: Stats, unit = 'µs'): Figure => ({ value: s.median, unit, p99: s.p99 });

export type RowsFn = (options: { quick: boolean }) => Promise<Row[]>;
