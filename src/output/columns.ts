// Column sets of the list-style outputs. Keys are stable machine names (CSV header, TSV order, --columns), named in
// column-names.ts, and the same for every API version, because they read the version-independent views of
// records.ts. Values are what machine formats print (times ISO 8601 with an offset, codes); `display` is the
// shorter text tables show, `style` the colour on a terminal; times and counts are made readable by the table.

import type { ChalkInstance } from 'chalk';
import { PACKAGE_STATUSES, REGISTER_ORIGIN, TRACKING_STATUSES } from '@trk/service/vocabulary.js';
import type { ItemError, QuotaRecord } from '@trk/service/types.js';
import {
  DETAILS_COLUMN_NAMES,
  ITEM_COLUMN_NAMES,
  QUOTA_FIELD_NAMES,
  RECORD_COLUMN_NAMES,
  REGISTER_COLUMN_NAMES,
} from './column-names.js';
import { RESULT_COLUMNS, type Cell, type Column, type ItemOutcome } from './render.js';
import {
  toCarrierCode,
  type CarrierCode,
  type DetailsView,
  type EventView,
  type RecordView,
} from '@trk/service/records.js';
import { fmt } from '../core/text.js';
import {
  COLUMN_FIELDS,
  parcelReference,
  recordFieldSpec,
  REFERENCE_FIELDS,
  type ColumnField,
  type ReferenceField,
  type ReferenceValues,
} from '@trk/service/record-fields.js';
import { datePart, isoWithOffset } from '@trk/service/times.js';

type RecordColumnName = (typeof RECORD_COLUMN_NAMES)[number];
type DetailsColumnName = (typeof DETAILS_COLUMN_NAMES)[number];

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

/** Columns of a set by name, in the order of its names list: every name defined, none added. */
export function columnsByName<T, N extends string>(
  names: readonly N[],
  defs: { readonly [K in N]: Omit<Column<T>, 'key'> },
): Column<T>[] {
  return names.map((key) => ({ key, ...defs[key] }));
}

type Def<T> = Omit<Column<T>, 'key'>;

/** The longest status names: what a status column keeps room for. */
const STATUS = { room: Math.max(...PACKAGE_STATUSES.map((s) => s.length)), roomRank: 5 } as const;
const TRACKING_WIDTH = Math.max(...TRACKING_STATUSES.map((s) => s.length));

/** A time column: ISO 8601 with an offset in machine formats, the reader's zone (or the age) in tables. */
function time<T>(header: string, get: (r: T) => string | null, wide?: number): Def<T> {
  return { header, value: get, time: true, ...(wide === undefined ? {} : { wide }) };
}

function carrierColumn<T>(
  header: string,
  get: (r: T) => CarrierCode | null | undefined,
  opts: ColumnOptions,
  extra: Partial<Def<T>> = {},
): Def<T> {
  // The code is what matters; the name beside it may be cut short rather than leave a column out.
  return { header, value: get, display: (r) => carrierText(get(r), opts.carrierName), shrink: 10, fair: 12, ...extra };
}

/**
 * The columns of a parcel's customer references, from the registry of record fields: each reference field's (in
 * tables with -o wide), and CUSTOMER, the first shown one (the order number, else the tag), as a report names a
 * parcel. `get` reads the references of a row (none: empty).
 */
export function referenceColumns<T>(get: (row: T) => ReferenceValues | undefined): {
  [K in ReferenceField | 'customer']: Def<T>;
} {
  const of = (field: ReferenceField): Def<T> => {
    const column = recordFieldSpec(field).column;
    return {
      header: column?.header ?? field.toUpperCase(),
      value: (r) => get(r)?.[field] ?? null,
      shrink: column?.shrink ?? 10,
      extra: true,
    };
  };
  const defs = Object.fromEntries(REFERENCE_FIELDS.map((f) => [f, of(f)])) as { [K in ReferenceField]: Def<T> };
  return {
    ...defs,
    customer: {
      header: 'CUSTOMER',
      value: (r) => {
        const refs = get(r);
        return refs ? parcelReference(refs) || null : null;
      },
      shrink: 10,
      wide: 3,
    },
  };
}

// ---- registration records (trk list) ----

/**
 * What a list keeps room for in later pages, past the first page's widths, once the carrier is in at its width:
 * the longest status first (a status is never cut, and a longer one would push its row past the terminal's edge),
 * then numbers of up to 22 characters (USPS; most are shorter), both before the optional columns (a tag is shown
 * when there is room left for it); then, from what every column leaves, carrier names of up to 20 (three in four
 * are; only when names are shown).
 */
const NUMBER_ROOM = { room: 22, roomRank: 6 } as const;
const NAMES = { room: 20 } as const;

export function recordColumns(opts: ColumnOptions = {}): Column<RecordView>[] {
  return columnsByName<RecordView, RecordColumnName>(RECORD_COLUMN_NAMES, {
    number: { header: 'NUMBER', value: (r) => r.number, id: true, ...NUMBER_ROOM },
    carrier: carrierColumn('CARRIER', (r) => r.carrier, opts, { id: true, wide: 5, ...(opts.carrierName && NAMES) }),
    final_carrier: carrierColumn('LAST MILE', (r) => r.final_carrier, opts, { wide: 40 }),
    status: { header: 'STATUS', value: (r) => r.status, style: (t, r, c) => styleStatus(r.status, t, c), ...STATUS },
    tracking: {
      header: 'TRACKING',
      value: (r) => r.tracking,
      style: (t, r, c) => (r.tracking === 'Stopped' ? c.dim(t) : t),
      room: TRACKING_WIDTH,
    },
    registered: time('REGISTERED', (r) => r.registered, 50),
    tracked: time('TRACKED', (r) => r.tracked, 30),
    pushed: { ...time('PUSHED', (r) => r.pushed, 90), extra: true },
    push_status: {
      header: 'PUSH',
      value: (r) => r.push_status,
      style: (t, r, c) => (r.push_status === 'Failure' ? c.red(t) : r.push_status === 'NotPushed' ? c.dim(t) : t),
      wide: 80,
      extra: true,
    },
    push_code: { header: 'HTTP', value: (r) => r.push_code, wide: 95, extra: true },
    stopped: { ...time('STOPPED', (r) => r.stopped, 70), extra: true },
    stop_reason: { header: 'STOP REASON', value: (r) => r.stop_reason, wide: 75, extra: true },
    retracked: {
      header: 'RETRACKED',
      value: (r) => r.retracked,
      display: (r) => (r.retracked ? 'yes' : ''),
      wide: 97,
      extra: true,
    },
    carrier_changes: { header: 'CHANGES', value: (r) => r.carrier_changes, wide: 98, extra: true },
    origin_country: { header: 'FROM', value: (r) => r.origin_country, shrink: 4, wide: 32 },
    destination_country: { header: 'TO', value: (r) => r.destination_country, shrink: 4, wide: 32 },
    latest_event_time: time('LAST EVENT AT', (r) => isoWithOffset(r.latest_event_time, { utc: true }), 35),
    latest_event: { header: 'LAST EVENT', value: (r) => r.latest_event, shrink: 12, wide: 36 },
    // The service's delivery time may be a carrier's wall clock without a zone: then it has no ISO form here, and
    // the text as sent is in delivered_raw.
    delivered: time('DELIVERED', (r) => isoWithOffset(r.delivered), 55),
    delivered_raw: { header: 'DELIVERED (AS SENT)', value: (r) => r.delivered, only: 'machine' },
    ...fieldColumns(),
  });
}

/** The list columns of the fields a record carries as sent, as record-fields.ts describes them. */
function fieldColumns(): Record<ColumnField, Def<RecordView>> {
  const defs = COLUMN_FIELDS.map((field): [ColumnField, Def<RecordView>] => {
    const spec = recordFieldSpec(field);
    const { header, shrink, wide, extra } = spec.column!;
    const def: Def<RecordView> = {
      header,
      value: (r) => r[field],
      ...(spec.kind === 'count' ? { count: true } : spec.kind === 'time' ? { time: true } : {}),
      ...(shrink === undefined ? {} : { shrink }),
      ...(wide === undefined ? {} : { wide }),
      ...(extra ? { extra } : {}),
    };
    return [field, def];
  });
  return Object.fromEntries(defs) as Record<ColumnField, Def<RecordView>>;
}

export const RECORD_COLUMNS: readonly Column<RecordView>[] = recordColumns();

// ---- tracking details in table/CSV form (trk info -o csv): one row per number ----

/** An event's time as ISO 8601 with an offset: the carrier's offset, else UTC, else the raw text when it has a zone. */
function eventIso(e: EventView | null): string | null {
  if (!e) return null;
  return e.time_iso ?? e.time_utc ?? isoWithOffset(e.time_raw);
}

function placeText(p: DetailsView['origin']): string | null {
  const parts = [p.city, p.state, p.country].filter((x): x is string => x !== null && x !== '');
  return parts.length > 0 ? parts.join(', ') : null;
}

/** `2026-07-08`, or `2026-07-08 – 07-10` for a range (the estimate's dates as the sender wrote them). */
export function dateRange(from: string | null, to: string | null): string {
  const a = from ? datePart(from) : '';
  const b = to ? datePart(to) : '';
  if (a === '' || b === '' || a === b) return a || b;
  return a.slice(0, 5) === b.slice(0, 5) ? `${a} – ${b.slice(5)}` : `${a} – ${b}`;
}

export function detailsColumns(opts: ColumnOptions = {}): Column<DetailsView>[] {
  return columnsByName<DetailsView, DetailsColumnName>(DETAILS_COLUMN_NAMES, {
    number: { header: 'NUMBER', value: (d) => d.number, id: true },
    carrier: carrierColumn('CARRIER', (d) => d.carrier, opts, { id: true, wide: 29 }),
    final_carrier: carrierColumn('LAST MILE', (d) => d.final_carrier, opts, { wide: 40 }),
    status: { header: 'STATUS', value: (d) => d.status, style: (t, d, c) => styleStatus(d.status, t, c), ...STATUS },
    sub_status: { header: 'SUB-STATUS', value: (d) => d.sub_status, shrink: 12, wide: 8 },
    latest_event_time: time('LAST EVENT AT', (d) => eventIso(d.latest_event), 20),
    latest_event: { header: 'LAST EVENT', value: (d) => d.latest_event?.description ?? null, shrink: 10, wide: 10 },
    latest_location: { header: 'WHERE', value: (d) => d.latest_event?.location ?? null, shrink: 8, wide: 25 },
    // How long ago the last event was (a carrier's wall clock without a zone has no age: shown as written).
    age: { header: 'AGE', value: (d) => eventIso(d.latest_event), time: true, age: true, only: 'table', wide: 22 },
    expected: {
      header: 'EXPECTED',
      value: (d) => d.metrics?.eta_to ?? d.metrics?.eta_from ?? null,
      display: (d) => dateRange(d.metrics?.eta_from ?? null, d.metrics?.eta_to ?? null),
      only: 'table',
      wide: 28,
    },
    origin: { header: 'FROM', value: (d) => placeText(d.origin), shrink: 8, wide: 50 },
    destination: { header: 'TO', value: (d) => placeText(d.destination), shrink: 8, wide: 50 },
    days_after_order: { header: 'DAYS', value: (d) => d.metrics?.days_after_order ?? null, count: true, wide: 60 },
    days_of_transit: { header: 'IN TRANSIT', value: (d) => d.metrics?.days_of_transit ?? null, count: true, wide: 60 },
    days_after_last_update: {
      header: 'SILENT DAYS',
      value: (d) => d.metrics?.days_after_last_update ?? null,
      count: true,
      wide: 65,
    },
    eta_from: {
      header: 'ETA FROM',
      value: (d) => isoWithOffset(d.metrics?.eta_from),
      display: (d) => datePart(d.metrics?.eta_from),
      wide: 70,
    },
    eta_to: {
      header: 'ETA TO',
      value: (d) => isoWithOffset(d.metrics?.eta_to),
      display: (d) => datePart(d.metrics?.eta_to),
      wide: 70,
    },
    delivered: time('DELIVERED', (d) => d.delivered_at, 55),
    customs: {
      header: 'CUSTOMS',
      value: (d) => d.customs[0]?.sub_status ?? null,
      style: (t, _d, c) => c.yellow(t),
      shrink: 12,
      wide: 45,
    },
    events: { header: 'EVENTS', value: (d) => d.events.length, count: true, wide: 80 },
    tag: { header: 'TAG', value: (d) => d.tag, shrink: 10, wide: 15 },
    latest_event_time_raw: {
      header: 'LAST EVENT AT (AS SENT)',
      value: (d) => d.latest_event?.time_raw ?? null,
      only: 'machine',
    },
    delivered_raw: { header: 'DELIVERED (AS SENT)', value: (d) => d.delivered_raw, only: 'machine' },
  });
}

export const DETAILS_COLUMNS: readonly Column<DetailsView>[] = detailsColumns();

/**
 * The compact table `trk info` shows for several numbers on a terminal: where each shipment is and how long it
 * has been quiet. Every details column is still there by name (--columns) and with -o wide.
 */
export const COMPACT_DETAILS: readonly DetailsColumnName[] = [
  'number',
  'carrier',
  'status',
  'sub_status',
  'latest_event',
  'latest_location',
  'age',
  'expected',
];

// ---- results of item commands (register, stop, retrack, delete, push, change...) ----

/** An item's result as the item columns read it: any of the service's fields, plus the result. */
export interface ItemResultRow {
  number?: unknown;
  carrier?: unknown;
  origin?: unknown;
  tag?: unknown;
  result?: ItemOutcome;
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
  const result = (key: string): Def<ItemResultRow> => {
    const { key: _key, ...def } = RESULT_COLUMNS.find((c) => c.key === key)!;
    return def as Def<ItemResultRow>;
  };
  const defs = {
    number: { header: 'NUMBER', value: (r: ItemResultRow) => loose(r.number), id: true },
    carrier: carrierColumn<ItemResultRow>('CARRIER', (r) => toCarrierCode(r.carrier), opts, { id: true }),
    origin: {
      header: 'ORIGIN',
      value: (r: ItemResultRow) => loose(r.origin),
      display: (r: ItemResultRow) => {
        const o = r.origin;
        const words = typeof o === 'number' ? ORIGIN_WORDS[o] : undefined;
        return words ? `${o} ${words}` : loose(o);
      },
      style: (t: string, r: ItemResultRow, c: ChalkInstance) =>
        r.origin === REGISTER_ORIGIN.guessed ? c.yellow(t) : t,
      wide: 5,
    },
    result: result('result'),
    error_code: result('error_code'),
    error_message: { ...result('error_message') },
    tag: { header: 'TAG', value: (r: ItemResultRow) => loose(r.tag), shrink: 10, wide: 10 },
  } satisfies Record<(typeof REGISTER_COLUMN_NAMES)[number], Def<ItemResultRow>>;
  return opts.origin ? columnsByName(REGISTER_COLUMN_NAMES, defs) : columnsByName(ITEM_COLUMN_NAMES, defs);
}

export const ITEM_COLUMNS: readonly Column<ItemResultRow>[] = itemColumns();
export const REGISTER_ITEM_COLUMNS: readonly Column<ItemResultRow>[] = itemColumns({ origin: true });

// ---- quota (trk quota) ----

export const QUOTA_FIELDS: readonly Column<QuotaRecord>[] = columnsByName<
  QuotaRecord,
  (typeof QUOTA_FIELD_NAMES)[number]
>(QUOTA_FIELD_NAMES, {
  quota_total: { header: 'Quota total', value: (q) => loose(q.quota_total), count: true },
  quota_used: { header: 'Quota used', value: (q) => loose(q.quota_used), count: true },
  quota_remain: {
    header: 'Quota left',
    value: (q) => loose(q.quota_remain),
    count: true,
    style: (t, q, c) => (typeof q.quota_remain === 'number' && q.quota_remain <= 0 ? c.red(t) : c.bold(t)),
  },
  today_used: { header: 'Used today', value: (q) => loose(q.today_used), count: true },
  max_track_daily: {
    header: 'Daily limit',
    value: (q) => loose(q.max_track_daily),
    // 0 means no cap (spec: Limits, daily cap).
    display: (q) =>
      q.max_track_daily === 0
        ? 'no limit'
        : typeof q.max_track_daily === 'number'
          ? fmt(q.max_track_daily)
          : loose(q.max_track_daily),
  },
  free_email_quota: { header: 'Free e-mail quota', value: (q) => loose(q.free_email_quota), count: true },
  free_email_quotaused: { header: 'Free e-mail used', value: (q) => loose(q.free_email_quotaused), count: true },
});
