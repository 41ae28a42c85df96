// A report as a whole: what the store counts for it, made into figures (figures.ts), with the parcels it lists.
// The renderers (terminal.ts, columns.ts, html.ts) draw from this object alone.

import type { ReportKey, ReportParcel, ReportQuery, Store } from '../store/types.js';
import {
  reportGroups,
  reportTotal,
  reportWeeks,
  storeKeys,
  type GroupFigures,
  type ReportBy,
  type StoreRows,
} from './figures.js';

/** Parcels a report lists on a terminal unless --all. */
export const PARCELS_SHOWN = 20;
/** Parcels a page lists unless --all: enough to act on, and the page stays light. */
export const PAGE_PARCELS = 300;

export interface ReportOptions {
  by: ReportBy;
  /** Registered since (canonical), or undefined for every record. */
  since: string | undefined;
  carriers?: readonly number[] | undefined;
  origins?: readonly string[] | undefined;
  destinations?: readonly string[] | undefined;
  stuckDays: number;
  /** How many stuck parcels, and parcels in trouble, to list (undefined: every one). */
  parcels: number | undefined;
  /** The groupings a page draws besides the report's own (by carrier, by lane). */
  page?: boolean;
  /** The groups' figures alone (what JSON, NDJSON and CSV print): no weekly volumes, no parcels listed. */
  figuresOnly?: boolean;
  now: number;
}

/** A parcel a report lists, with the days it has gone without news. */
export interface ListedParcel extends ReportParcel {
  days_without_news: number | null;
}

export interface Report {
  synced_at: string | null;
  since: string | null;
  by: ReportBy;
  stuck_days: number;
  groups: GroupFigures[];
  total: GroupFigures;
  /** The Mondays the weekly volumes cover. */
  weeks: string[];
  stuck: ListedParcel[];
  trouble: ListedParcel[];
  /** For a page: the figures by carrier (with weekly volumes) and by lane, whatever the report's own grouping. */
  page?: { carriers: GroupFigures[]; lanes: GroupFigures[] };
}

const DAY_MS = 86_400_000;
const utcDay = (ms: number) => Math.floor(ms / DAY_MS);

/** The query of a report's options: filters, and the time before which a latest event makes a parcel stuck. */
export function reportQuery(o: ReportOptions): ReportQuery {
  // No news for N days: the latest event on a UTC day at least N days before today's (as the service counts).
  const before = new Date((utcDay(o.now) - o.stuckDays + 1) * DAY_MS).toISOString();
  return {
    since: o.since,
    carriers: o.carriers,
    origins: o.origins,
    destinations: o.destinations,
    stuck: { days: o.stuckDays, before },
  };
}

/** The days a parcel has gone without news: the service's count as last read, or the latest event's age if more. */
export function daysWithoutNews(p: ReportParcel, now: number): number | null {
  const event = p.latest_event_time === null ? null : Date.parse(p.latest_event_time);
  const age = event === null || Number.isNaN(event) ? null : Math.max(0, utcDay(now) - utcDay(event));
  if (age === null) return p.days_after_last_update;
  return Math.max(age, p.days_after_last_update ?? 0);
}

/** The keys a page's figures are read by (its carriers and its lanes). */
const PAGE_KEYS: readonly ReportKey[] = ['carrier', 'lane'];

/**
 * Counts and transit days (the store reads the records once for both) and windows by `keys`; with `volumes`, the
 * parcels registered each day by those keys (from the counts themselves when they are by day).
 */
async function storeRows(
  store: Store,
  query: ReportQuery,
  keys: readonly ReportKey[],
  volumes: readonly ReportKey[] | undefined,
): Promise<StoreRows> {
  const byDay = keys.includes('day');
  const [records, windows, registered] = await Promise.all([
    store.reportRecords(query, keys),
    store.reportWindows(query, keys),
    volumes !== undefined && !byDay ? store.reportRegistered(query, volumes) : [],
  ]);
  return { ...records, windows, registered: volumes !== undefined && byDay ? records.counts : registered };
}

/** Reads what a report needs from the mirror and makes its figures. */
export async function buildReport(
  store: Store,
  o: ReportOptions,
  carrierName: (code: number) => string | undefined,
): Promise<Report> {
  const query = reportQuery(o);
  const own = storeKeys(o.by);
  const timed = own.includes('day');
  // Weekly volumes of the report's own groups, and of a page's carriers (the page draws no lane's).
  const volumes = o.figuresOnly ? undefined : o.page ? [...new Set<ReportKey>([...own, 'carrier'])] : own;
  // A page by carrier, lane or both reads its groups from its figures by carrier and lane.
  const rows = await storeRows(store, query, o.page && !timed ? PAGE_KEYS : own, volumes);
  const pageRows = o.page && timed ? await storeRows(store, query, PAGE_KEYS, ['carrier']) : rows;
  const groups = reportGroups(o.by, rows, carrierName);
  const total = reportTotal(rows);
  const listed = (parcels: ReportParcel[]) =>
    parcels.map((p) => ({ ...p, days_without_news: daysWithoutNews(p, o.now) }));
  const report: Report = {
    synced_at: (await store.state('synced_at')) ?? null,
    since: o.since ?? null,
    by: o.by,
    stuck_days: o.stuckDays,
    groups,
    total,
    weeks: reportWeeks([total]),
    stuck: o.figuresOnly || total.group.stuck === 0 ? [] : listed(await store.reportParcels(query, 'stuck', o.parcels)),
    trouble:
      o.figuresOnly || total.group.exceptions + total.group.delivery_failures === 0
        ? []
        : listed(await store.reportParcels(query, 'trouble', o.parcels)),
  };
  if (o.page) {
    report.page = {
      carriers: o.by === 'carrier' ? groups : reportGroups('carrier', pageRows, carrierName),
      // (Volumes by carrier would make a lane of no countries.)
      lanes: o.by === 'lane' ? groups : reportGroups('lane', { ...pageRows, registered: [] }, carrierName),
    };
  }
  return report;
}
