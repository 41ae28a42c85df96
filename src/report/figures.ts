// The figures of `trk report`, from the rows the store counts (src/store/report-reads.ts): groups by carrier, lane,
// both, week or month of registration; transit-day percentiles; the on-time rate; weekly volumes. Pure: the
// store's rows in, plain objects out, so that every figure can be checked against values worked out by hand.

import type { ReportCounts, ReportKey, ReportRegistered, ReportTransit, ReportWindows } from '../store/types.js';
import { REPORT_COUNTS } from '../store/types.js';

export const REPORT_BY = ['carrier', 'lane', 'carrier,lane', 'week', 'month'] as const;
export type ReportBy = (typeof REPORT_BY)[number];

/** What the store groups by for a report by `by` (weeks and months are made of days). */
export function storeKeys(by: ReportBy): ReportKey[] {
  switch (by) {
    case 'carrier':
      return ['carrier'];
    case 'lane':
      return ['lane'];
    case 'carrier,lane':
      return ['carrier', 'lane'];
    case 'week':
    case 'month':
      return ['day'];
  }
}

export interface TransitDays {
  n: number;
  p50: number | null;
  p90: number | null;
  mean: number | null;
  min: number | null;
  max: number | null;
}

/** One group, as `--json` prints it (the fields of its grouping first, then the counts of ReportCounts). */
export interface ReportGroup extends Omit<ReportCounts, 'carrier' | 'origin' | 'destination' | 'day'> {
  carrier?: number;
  carrier_name?: string | null;
  origin?: string | null;
  destination?: string | null;
  /** The Monday (UTC) the week of registration starts on, YYYY-MM-DD. */
  week?: string | null;
  /** YYYY-MM. */
  month?: string | null;
  transit_days: TransitDays;
  on_time_rate: number | null;
}

/** A group with what the terminal and the page draw besides its figures. */
export interface GroupFigures {
  group: ReportGroup;
  /** Registered a week, by the week's Monday, in time order (whatever the order of the store's rows). */
  weekly: ReadonlyMap<string, number>;
  /** Delivered parcels by transit days, ascending. */
  transit: readonly (readonly [days: number, count: number])[];
}

type Keyed = Pick<ReportCounts, 'carrier' | 'origin' | 'destination' | 'day'>;

const DAY_MS = 86_400_000;

/** Weeks of the days seen: a report's rows name a few hundred days, thousands of times. */
const WEEKS = new Map<string, string>();

/** The Monday (UTC) of the week of a YYYY-MM-DD day. */
export function weekOf(day: string): string {
  let week = WEEKS.get(day);
  if (week === undefined) {
    const ms = Date.parse(`${day}T00:00:00Z`);
    const sinceMonday = (new Date(ms).getUTCDay() + 6) % 7;
    week = new Date(ms - sinceMonday * DAY_MS).toISOString().slice(0, 10);
    WEEKS.set(day, week);
  }
  return week;
}

/** The Mondays from `first` to `last`, both included. */
export function weeksBetween(first: string, last: string): string[] {
  const out: string[] = [];
  for (let ms = Date.parse(`${first}T00:00:00Z`); ms <= Date.parse(`${last}T00:00:00Z`); ms += 7 * DAY_MS)
    out.push(new Date(ms).toISOString().slice(0, 10));
  return out;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * The `p` quantile (0 to 1) of a histogram of values (ascending, positive counts), by linear interpolation between
 * the closest ranks: rank h = (n - 1) p counted from 0, and the value between ranks floor(h) and floor(h) + 1 in
 * proportion (what numpy's default, R's type 7 and spreadsheets' PERCENTILE.INC give).
 */
export function quantile(histogram: readonly (readonly [number, number])[], p: number): number | null {
  const n = histogram.reduce((s, [, c]) => s + c, 0);
  if (n === 0) return null;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const at = (rank: number): number => {
    let seen = 0;
    for (const [value, count] of histogram) {
      seen += count;
      if (rank < seen) return value;
    }
    return histogram[histogram.length - 1]![0];
  };
  const below = at(lo);
  return below + (h - lo) * (at(Math.min(lo + 1, n - 1)) - below);
}

/** n, p50, p90, mean, min and max of a histogram (figures rounded to two decimals). */
export function transitDays(histogram: readonly (readonly [number, number])[]): TransitDays {
  const n = histogram.reduce((s, [, c]) => s + c, 0);
  if (n === 0) return { n: 0, p50: null, p90: null, mean: null, min: null, max: null };
  const sum = histogram.reduce((s, [v, c]) => s + v * c, 0);
  return {
    n,
    p50: round(quantile(histogram, 0.5)!, 2),
    p90: round(quantile(histogram, 0.9)!, 2),
    mean: round(sum / n, 2),
    min: histogram[0]![0],
    max: histogram[histogram.length - 1]![0],
  };
}

/** A report's groups, or its one group of every record (its total). */
type Grouping = ReportBy | 'all';

/** The group a row of the store belongs to, as an id and as the group's fields. */
function groupKey(by: Grouping, row: Keyed): { id: string; fields: Partial<ReportGroup> } {
  switch (by) {
    case 'all':
      return { id: 'all', fields: {} };
    case 'carrier':
      return { id: String(row.carrier), fields: { carrier: row.carrier ?? 0 } };
    case 'lane':
      return { id: `${row.origin}>${row.destination}`, fields: { origin: row.origin, destination: row.destination } };
    case 'carrier,lane':
      return {
        id: `${row.carrier}|${row.origin}>${row.destination}`,
        fields: { carrier: row.carrier ?? 0, origin: row.origin, destination: row.destination },
      };
    case 'week': {
      const week = row.day === null ? null : weekOf(row.day);
      return { id: String(week), fields: { week } };
    }
    case 'month': {
      const month = row.day?.slice(0, 7) ?? null;
      return { id: String(month), fields: { month } };
    }
  }
}

interface Building {
  fields: Partial<ReportGroup>;
  counts: Omit<ReportCounts, keyof Keyed>;
  windows: { with_window: number; on_time: number };
  weekly: Map<string, number>;
  transit: Map<number, number>;
}

export interface StoreRows {
  counts: readonly ReportCounts[];
  windows: readonly ReportWindows[];
  transit: readonly ReportTransit[];
  /** Parcels registered a day, for the weekly volumes (none where a report draws none). */
  registered: readonly ReportRegistered[];
}

/** Orders groups: time groups in time order (unknown last), others by parcels, most first, then by name. */
function compareGroups(by: Grouping): (a: [string, Building], b: [string, Building]) => number {
  if (by === 'week' || by === 'month') return ([a], [b]) => (a === 'null' ? 1 : b === 'null' ? -1 : compareIds(a, b));
  return ([a, x], [b, y]) => y.counts.registered - x.counts.registered || compareIds(a, b);
}

/** A character's place in compareIds' first pass: other signs, then digits, then letters whatever their case. */
function rank(code: number): number {
  if (code >= 48 && code <= 57) return 0x10000 + code;
  const lower = code | 0x20;
  if (lower >= 97 && lower <= 122) return 0x20000 + lower;
  return code;
}

/**
 * Group ids (carrier codes, countries, days, `|`, `>` and `null`) in the order `localeCompare` gives them in
 * English, and the same on every machine, without ICU's collator: loading it cost the report 2-3 MiB of its peak
 * memory. First without case (signs before digits, digits before letters), then lowercase before uppercase.
 */
export function compareIds(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = rank(a.charCodeAt(i)) - rank(b.charCodeAt(i));
    if (d !== 0) return d;
  }
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < n; i++) {
    const d = b.charCodeAt(i) - a.charCodeAt(i);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The groups of a report by `by`, from the store's rows (counted by the keys `storeKeys(by)` names, or finer ones;
 * a group's figures may come in several rows, added up here). `carrierName` names carriers (from the carrier list;
 * undefined when it has none).
 */
export function reportGroups(
  by: Grouping,
  rows: StoreRows,
  carrierName: (code: number) => string | undefined,
): GroupFigures[] {
  const groups = new Map<string, Building>();
  const groupOf = (row: Keyed): Building => {
    const { id, fields } = groupKey(by, row);
    let g = groups.get(id);
    if (!g) {
      g = {
        fields,
        counts: Object.fromEntries(REPORT_COUNTS.map((f) => [f, 0])) as Building['counts'],
        windows: { with_window: 0, on_time: 0 },
        weekly: new Map(),
        transit: new Map(),
      };
      groups.set(id, g);
    }
    return g;
  };
  for (const row of rows.counts) {
    const g = groupOf(row);
    for (const f of REPORT_COUNTS) g.counts[f] += row[f];
  }
  for (const row of rows.registered) {
    if (row.day === null || row.registered === 0) continue;
    const g = groupOf(row);
    const week = weekOf(row.day);
    g.weekly.set(week, (g.weekly.get(week) ?? 0) + row.registered);
  }
  for (const row of rows.windows) {
    const g = groupOf(row);
    g.windows.with_window += row.with_window;
    g.windows.on_time += row.on_time;
  }
  for (const row of rows.transit) {
    const g = groupOf(row);
    g.transit.set(row.days, (g.transit.get(row.days) ?? 0) + row.count);
  }
  return [...groups.entries()].sort(compareGroups(by)).map(([, g]) => figuresOf(g, carrierName));
}

function figuresOf(g: Building, carrierName: (code: number) => string | undefined): GroupFigures {
  const transit = [...g.transit.entries()].filter(([, c]) => c > 0).sort((a, b) => a[0] - b[0]);
  const named =
    g.fields.carrier === undefined
      ? {}
      : { carrier: g.fields.carrier, carrier_name: carrierName(g.fields.carrier) ?? null };
  return {
    group: {
      ...g.fields,
      ...named,
      ...g.counts,
      transit_days: transitDays(transit),
      on_time_rate: g.windows.with_window === 0 ? null : round(g.windows.on_time / g.windows.with_window, 4),
    },
    weekly: new Map([...g.weekly].sort(([a], [b]) => compareIds(a, b))),
    transit,
  };
}

/** The figures of every record of the rows together: a report's total. */
export function reportTotal(rows: StoreRows): GroupFigures {
  const none: StoreRows = { counts: [EMPTY], windows: [], transit: [], registered: [] };
  return reportGroups('all', rows, () => undefined)[0] ?? reportGroups('all', none, () => undefined)[0]!;
}

const EMPTY: ReportCounts = {
  carrier: null,
  origin: null,
  destination: null,
  day: null,
  ...(Object.fromEntries(REPORT_COUNTS.map((f) => [f, 0])) as Building['counts']),
};

/** The Mondays a report's weekly volumes cover: from the first week with a registration to the last. */
export function reportWeeks(groups: readonly GroupFigures[]): string[] {
  const weeks = groups.flatMap((g) => [...g.weekly.keys()]).sort();
  return weeks.length === 0 ? [] : weeksBetween(weeks[0]!, weeks[weeks.length - 1]!);
}
