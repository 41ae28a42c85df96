// Column sets of the list-style outputs. Keys are stable machine names (CSV header, TSV order) and are the same for
// every API version, because they read the version-independent views of records.ts. Values are what the service
// sent (ISO times, codes); `display` is the shorter text tables show, `style` the colour on a terminal.

import type { ChalkInstance } from 'chalk';
import { REGISTER_ORIGIN } from '../api/spec.js';
import type { ItemError, QuotaRecord } from '../api/types.js';
import { RESULT_COLUMNS, type Cell, type Column } from './render.js';
import { toCarrierCode, type CarrierCode, type DetailsView, type EventView, type RecordView } from './records.js';
import { wallTime } from './times.js';

/** Carrier code → name, supplied by the carriers module when the list is at hand. */
export type CarrierNameLookup = (key: number) => string | undefined;

export interface ColumnOptions {
  carrierName?: CarrierNameLookup;
}

/** `3011 China Post` when the name is known, else the code; 0 (no last-mile carrier) shows empty. */
export function carrierText(code: CarrierCode | null | undefined, carrierName?: CarrierNameLookup): string {
  if (code === null || code === undefined || code === 0) return '';
  if (typeof code !== 'number') return code;
  const name = carrierName?.(code);
  return name ? `${code} ${name}` : String(code);
}

/** Colour of a main package status (by name; v1 codes are mapped to names before they get here). */
export function styleStatus(status: string | null | undefined, text: string, c: ChalkInstance): string {
  switch (status) {
    case 'Delivered':
      return c.green(text);
    case 'Exception':
    case 'DeliveryFailure':
      return c.red(text);
    case 'InTransit':
      return c.blue(text);
    case 'OutForDelivery':
      return c.cyan(text);
    case 'AvailableForPickup':
      return c.yellow(text);
    case 'Expired':
    case 'NotFound':
      return c.dim(text);
    default:
      return text;
  }
}

function time<T>(key: string, header: string, get: (r: T) => string | null, wide?: number): Column<T> {
  return { key, header, value: get, display: (r) => wallTime(get(r)), ...(wide === undefined ? {} : { wide }) };
}

function carrierColumn<T>(
  key: string,
  header: string,
  get: (r: T) => CarrierCode | null | undefined,
  opts: ColumnOptions,
  wide?: number,
): Column<T> {
  return {
    key,
    header,
    value: get,
    display: (r) => carrierText(get(r), opts.carrierName),
    ...(wide === undefined ? {} : { wide }),
  };
}

// ---- registration records (trk list) ----

export function recordColumns(opts: ColumnOptions = {}): Column<RecordView>[] {
  return [
    { key: 'number', header: 'NUMBER', value: (r) => r.number },
    carrierColumn('carrier', 'CARRIER', (r) => r.carrier, opts),
    carrierColumn('final_carrier', 'LAST MILE', (r) => r.final_carrier, opts, 40),
    { key: 'status', header: 'STATUS', value: (r) => r.status, style: (t, r, c) => styleStatus(r.status, t, c) },
    {
      key: 'tracking',
      header: 'TRACKING',
      value: (r) => r.tracking,
      style: (t, r, c) => (r.tracking === 'Stopped' ? c.dim(t) : t),
      wide: 20,
    },
    time('registered', 'REGISTERED', (r) => r.registered, 50),
    time('tracked', 'TRACKED', (r) => r.tracked, 30),
    time('pushed', 'PUSHED', (r) => r.pushed, 90),
    {
      key: 'push_status',
      header: 'PUSH',
      value: (r) => r.push_status,
      style: (t, r, c) => (r.push_status === 'Failure' ? c.red(t) : r.push_status === 'NotPushed' ? c.dim(t) : t),
      wide: 80,
    },
    { key: 'push_code', header: 'HTTP', value: (r) => r.push_code, wide: 95 },
    time('stopped', 'STOPPED', (r) => r.stopped, 70),
    { key: 'stop_reason', header: 'STOP REASON', value: (r) => r.stop_reason, wide: 75 },
    { key: 'retracked', header: 'RETRACKED', value: (r) => r.retracked, display: (r) => (r.retracked ? 'yes' : ''), wide: 97 },
    { key: 'carrier_changes', header: 'CHANGES', value: (r) => r.carrier_changes, wide: 98 },
    { key: 'tag', header: 'TAG', value: (r) => r.tag, wide: 10 },
    { key: 'origin_country', header: 'FROM', value: (r) => r.origin_country, wide: 45 },
    { key: 'destination_country', header: 'TO', value: (r) => r.destination_country, wide: 45 },
    time('latest_event_time', 'LAST EVENT AT', (r) => r.latest_event_time, 35),
    { key: 'latest_event', header: 'LAST EVENT', value: (r) => r.latest_event, wide: 36 },
    { key: 'days_after_order', header: 'DAYS', value: (r) => r.days_after_order, wide: 60 },
    { key: 'days_of_transit', header: 'IN TRANSIT', value: (r) => r.days_of_transit, wide: 60 },
    time('delivered', 'DELIVERED', (r) => r.delivered, 55),
    { key: 'order_no', header: 'ORDER', value: (r) => r.order_no, wide: 65 },
    { key: 'remark', header: 'REMARK', value: (r) => r.remark, wide: 99 },
  ];
}

export const RECORD_COLUMNS: readonly Column<RecordView>[] = recordColumns();

// ---- tracking details in table/CSV form (trk info -o csv): one row per number ----

function eventTime(e: EventView | null): string | null {
  return e ? (e.time_iso ?? e.time_utc ?? e.time_raw) : null;
}

function placeText(p: DetailsView['origin']): string | null {
  const parts = [p.city, p.state, p.country].filter((x): x is string => x !== null && x !== '');
  return parts.length > 0 ? parts.join(', ') : null;
}

export function detailsColumns(opts: ColumnOptions = {}): Column<DetailsView>[] {
  return [
    { key: 'number', header: 'NUMBER', value: (d) => d.number },
    carrierColumn('carrier', 'CARRIER', (d) => d.carrier, opts),
    carrierColumn('final_carrier', 'LAST MILE', (d) => d.final_carrier, opts, 40),
    { key: 'status', header: 'STATUS', value: (d) => d.status, style: (t, d, c) => styleStatus(d.status, t, c) },
    { key: 'sub_status', header: 'SUB-STATUS', value: (d) => d.sub_status, wide: 30 },
    time('latest_event_time', 'LAST EVENT AT', (d) => eventTime(d.latest_event), 20),
    { key: 'latest_event', header: 'LAST EVENT', value: (d) => d.latest_event?.description ?? null, wide: 10 },
    { key: 'latest_location', header: 'WHERE', value: (d) => d.latest_event?.location ?? null, wide: 25 },
    { key: 'origin', header: 'FROM', value: (d) => placeText(d.origin), wide: 50 },
    { key: 'destination', header: 'TO', value: (d) => placeText(d.destination), wide: 50 },
    { key: 'days_after_order', header: 'DAYS', value: (d) => d.metrics?.days_after_order ?? null, wide: 60 },
    { key: 'days_of_transit', header: 'IN TRANSIT', value: (d) => d.metrics?.days_of_transit ?? null, wide: 60 },
    {
      key: 'days_after_last_update',
      header: 'SILENT DAYS',
      value: (d) => d.metrics?.days_after_last_update ?? null,
      wide: 65,
    },
    time('eta_from', 'ETA FROM', (d) => d.metrics?.eta_from ?? null, 70),
    time('eta_to', 'ETA TO', (d) => d.metrics?.eta_to ?? null, 70),
    time('delivered', 'DELIVERED', (d) => d.delivered, 55),
    {
      key: 'customs',
      header: 'CUSTOMS',
      value: (d) => d.customs[0]?.sub_status ?? null,
      style: (t, _d, c) => c.yellow(t),
      wide: 45,
    },
    { key: 'events', header: 'EVENTS', value: (d) => d.events.length, wide: 80 },
    { key: 'tag', header: 'TAG', value: (d) => d.tag, wide: 15 },
  ];
}

export const DETAILS_COLUMNS: readonly Column<DetailsView>[] = detailsColumns();

// ---- results of item commands (register, stop, retrack, delete, push, change...) ----

/** An accepted or rejected item as the item columns read it: any of the service's fields, plus the result. */
export interface ItemResultRow {
  number?: unknown;
  carrier?: unknown;
  origin?: unknown;
  tag?: unknown;
  result?: 'accepted' | 'rejected';
  error?: ItemError;
  [extra: string]: unknown;
}

/** Register `origin`: how the carrier code was settled. */
export const ORIGIN_WORDS: Readonly<Record<number, string>> = {
  [REGISTER_ORIGIN.detectedOrCorrected]: 'detected',
  [REGISTER_ORIGIN.passedCorrect]: 'as given',
  [REGISTER_ORIGIN.guessed]: 'guessed',
};

function loose(v: unknown): Cell {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
}

export interface ItemColumnOptions extends ColumnOptions {
  /** Include register's `origin` column. */
  origin?: boolean;
}

export function itemColumns(opts: ItemColumnOptions = {}): Column<ItemResultRow>[] {
  const cols: Column<ItemResultRow>[] = [
    { key: 'number', header: 'NUMBER', value: (r) => loose(r.number) },
    carrierColumn('carrier', 'CARRIER', (r) => toCarrierCode(r.carrier), opts),
  ];
  if (opts.origin) {
    cols.push({
      key: 'origin',
      header: 'ORIGIN',
      value: (r) => loose(r.origin),
      display: (r) => {
        const o = r.origin;
        const words = typeof o === 'number' ? ORIGIN_WORDS[o] : undefined;
        return words ? `${o} ${words}` : loose(o);
      },
      style: (t, r, c) => (r.origin === REGISTER_ORIGIN.guessed ? c.yellow(t) : t),
      wide: 5,
    });
  }
  cols.push(...RESULT_COLUMNS, { key: 'tag', header: 'TAG', value: (r) => loose(r.tag), wide: 10 });
  return cols;
}

export const ITEM_COLUMNS: readonly Column<ItemResultRow>[] = itemColumns();
export const REGISTER_ITEM_COLUMNS: readonly Column<ItemResultRow>[] = itemColumns({ origin: true });

// ---- quota (trk quota) ----

export const QUOTA_FIELDS: readonly Column<QuotaRecord>[] = [
  { key: 'quota_total', header: 'Quota total', value: (q) => loose(q.quota_total) },
  { key: 'quota_used', header: 'Quota used', value: (q) => loose(q.quota_used) },
  {
    key: 'quota_remain',
    header: 'Quota left',
    value: (q) => loose(q.quota_remain),
    style: (t, q, c) => (typeof q.quota_remain === 'number' && q.quota_remain <= 0 ? c.red(t) : c.bold(t)),
  },
  { key: 'today_used', header: 'Used today', value: (q) => loose(q.today_used) },
  {
    key: 'max_track_daily',
    header: 'Daily limit',
    value: (q) => loose(q.max_track_daily),
    // 0 means no cap (spec: Limits, daily cap).
    display: (q) => (q.max_track_daily === 0 ? 'no limit' : loose(q.max_track_daily)),
  },
  { key: 'free_email_quota', header: 'Free e-mail quota', value: (q) => loose(q.free_email_quota) },
  { key: 'free_email_quotaused', header: 'Free e-mail used', value: (q) => loose(q.free_email_quotaused) },
];
