// The columns of a report's groups: CSV and tab-separated lines (one row per group, `transit_days` flattened as
// `transit_days_p50`...), and the table a terminal shows (rates beside counts, days rounded to one decimal).

import type { Column } from '../output/render.js';
import { fmt } from '../core/text.js';
import type { GroupFigures, ReportBy, ReportGroup, TransitDays } from './figures.js';
import { REPORT_COUNTS } from '../store/types.js';

/** The fields naming a group of each grouping, in the order JSON and CSV give them. */
export const GROUP_FIELDS: Readonly<Record<ReportBy, readonly (keyof ReportGroup)[]>> = {
  carrier: ['carrier', 'carrier_name'],
  lane: ['origin', 'destination'],
  'carrier,lane': ['carrier', 'carrier_name', 'origin', 'destination'],
  week: ['week'],
  month: ['month'],
};

const TRANSIT = ['n', 'p50', 'p90', 'mean', 'min', 'max'] as const satisfies readonly (keyof TransitDays)[];

/** Columns of CSV and tab-separated lines for a report by `by`. */
export function machineColumns(by: ReportBy): Column<GroupFigures>[] {
  return [
    ...GROUP_FIELDS[by].map((f) => ({
      key: f,
      header: f,
      value: (g: GroupFigures) => g.group[f] as string | number | null | undefined,
    })),
    ...REPORT_COUNTS.map((f) => ({ key: f, header: f, value: (g: GroupFigures) => g.group[f] })),
    ...TRANSIT.map((f) => ({
      key: `transit_days_${f}`,
      header: f,
      value: (g: GroupFigures) => g.group.transit_days[f],
    })),
    { key: 'on_time_rate', header: 'on_time_rate', value: (g: GroupFigures) => g.group.on_time_rate },
  ];
}

/** A group's name for people: the carrier's name (else its code), the lane, both, the week or the month. */
export function groupLabel(group: ReportGroup): string {
  const carrier =
    group.carrier === undefined
      ? undefined
      : (group.carrier_name ?? (group.carrier === 0 ? 'no carrier' : String(group.carrier)));
  // Parcels not found yet have no countries.
  const lane = !('origin' in group)
    ? undefined
    : group.origin == null && group.destination == null
      ? 'no lane yet'
      : `${group.origin ?? '?'} → ${group.destination ?? '?'}`;
  const time = 'week' in group ? group.week : 'month' in group ? group.month : undefined;
  if (time !== undefined) return time ?? 'unknown';
  return [carrier, lane].filter((p) => p !== undefined).join(' ') || 'All';
}

/** `0.8123` → `81%`; one decimal below 10 % (exception rates). */
export function percent(part: number, whole: number): string {
  if (whole === 0) return '';
  const p = (100 * part) / whole;
  return p > 0 && p < 10 ? `${p.toFixed(1)}%` : `${Math.round(p)}%`;
}

const days = (d: number | null) => (d === null ? '' : Number.isInteger(d) ? String(d) : d.toFixed(1));
const countAndRate = (n: number, of: number) => (n === 0 ? '0' : `${fmt(n)} ${percent(n, of)}`);

/** The table of groups on a terminal. Columns go, least useful first, when the terminal is narrow. */
export function tableColumns(by: ReportBy): Column<GroupFigures>[] {
  const header = {
    carrier: 'CARRIER',
    lane: 'LANE',
    'carrier,lane': 'CARRIER AND LANE',
    week: 'WEEK OF',
    month: 'MONTH',
  }[by];
  // Kept first, as the terminal narrows: what became of the parcels (delivered, exceptions, failed), then how long
  // they took and whether on time; stuck parcels and p90 have sections of their own below, and those on the way
  // are the rest of the parcels.
  return [
    { key: 'group', header, value: (g) => groupLabel(g.group), shrink: 10 },
    { key: 'registered', header: 'PARCELS', value: (g) => g.group.registered, count: true },
    {
      key: 'delivered',
      header: 'DELIVERED',
      value: (g) => countAndRate(g.group.delivered, g.group.registered),
      wide: 1,
    },
    { key: 'in_transit', header: 'ON THE WAY', value: (g) => g.group.in_transit, count: true, wide: 8 },
    {
      key: 'exceptions',
      header: 'EXCEPTIONS',
      value: (g) => countAndRate(g.group.exceptions, g.group.registered),
      wide: 2,
    },
    {
      key: 'delivery_failures',
      header: 'FAILED',
      value: (g) => countAndRate(g.group.delivery_failures, g.group.registered),
      wide: 3,
    },
    { key: 'stuck', header: 'STUCK', value: (g) => g.group.stuck, count: true, wide: 6 },
    { key: 'p50', header: 'P50', value: (g) => days(g.group.transit_days.p50), wide: 4 },
    { key: 'p90', header: 'P90', value: (g) => days(g.group.transit_days.p90), wide: 7 },
    {
      key: 'on_time',
      header: 'ON TIME',
      value: (g) => (g.group.on_time_rate === null ? '' : `${Math.round(g.group.on_time_rate * 100)}%`),
      wide: 5,
    },
  ];
}
