// The mirror's store: what `trk sync`, the offline reads, `trk changes` and the webhook listener ask of it. One
// interface, async throughout, so that a store on a database server (PostgreSQL, for several hosts) fits it as
// well as the SQLite file. The rows are plain values computed once from the service's answers (rows.ts); the
// SQL that writes and reads them is shared by the implementations (sql.ts).

import type { ParcelReferences, RecordFieldValues, ReferenceValues } from '@trk/service/record-fields.js';
import type { NotifyStore } from './notify-types.js';

/** Where a status change was learnt. */
export type ChangeSource = 'sync' | 'webhook';

/** A record's identity on the service: the number and its carrier code (0 when the answer named none). */
export interface RecordKey {
  number: string;
  carrier: number;
}

/**
 * One registration record (a gettracklist item): as received (`raw`, with the version it was read in) and
 * every field of the list as a column, times in one canonical form (ISO 8601 UTC with milliseconds) so that
 * they compare as text. The fields a record carries as sent are those of record-fields.ts, by the same names.
 */
export interface RecordRow extends RecordKey, RecordFieldValues {
  api_version: string;
  raw: string;
  param: string | null;
  param_type: string | null;
  data_origin: string | null;
  final_carrier: number | null;
  origin_country: string | null;
  destination_country: string | null;
  register_time: string | null;
  tracking_status: string | null;
  package_status: string | null;
  track_time: string | null;
  push_time: string | null;
  push_status: string | null;
  push_status_code: number | null;
  stop_track_time: string | null;
  stop_track_reason: string | null;
  is_retracked: number | null;
  carrier_change_count: number | null;
  latest_event_time: string | null;
  latest_event_info: string | null;
  delivery_time: string | null;
  /** The latest of the record's own times: newer list answers replace older ones, never the reverse. */
  as_of: string;
}

/**
 * The tracking details of a record (a gettrackinfo item or a TRACKING_UPDATED notification's data) as received,
 * and the columns the reports read.
 */
export interface DetailsRow extends RecordKey {
  api_version: string;
  raw: string;
  /** The service's latest tracking of these details (the providers' latest sync); '' when it has none yet. */
  as_of: string;
  providers_hash: number | null;
  /**
   * The record's track_time the details were asked for with (sync), null for a notification: with as_of, the
   * tracking they answer (trackedOf in sql.ts), which tells which details are newer and whether they are current.
   */
  record_track_time: string | null;
  package_status: string | null;
  sub_status: string | null;
  sub_status_descr: string | null;
  origin_country: string | null;
  destination_country: string | null;
  register_time: string | null;
  days_after_order: number | null;
  days_of_transit: number | null;
  days_of_transit_done: number | null;
  days_after_last_update: number | null;
  eta_source: string | null;
  eta_from: string | null;
  eta_to: string | null;
  delivery_time: string | null;
  latest_event_time: string | null;
  /**
   * The latest event's time as the service wrote it (in its carrier's offset, as the list answer shows it): what a
   * notification patches into the record's copy of that answer. Not a column.
   */
  latest_event_time_sent: string | null;
  latest_event: string | null;
  tag: string | null;
  param: string | null;
}

/** A status change the mirror learnt. */
export interface ChangeRow extends RecordKey {
  id: number;
  /** The main status held before; null for a number the mirror did not know. */
  from_status: string | null;
  to_status: string | null;
  from_sub_status: string | null;
  to_sub_status: string | null;
  /** The time of the latest event, as the service gave it. */
  event_time: string | null;
  /** When the service found the change: its tracking time, from its own answer. */
  detected_at: string;
  source: ChangeSource;
}

/** A change as `trk changes` reads it: with the references of its parcel's record (null: none, or no record). */
export interface ListedChange extends ChangeRow, ReferenceValues {}

/** What writing details did: the changes recorded, and whether the details were stored (not older ones). */
export interface DetailsWrite {
  stored: number;
  changes: ChangeRow[];
}

/** A stored record with what the offline reads print. */
export interface StoredRecord {
  raw: string;
  api_version: string;
}

/** Columns of records a list filters by a set of values. */
export const CHOICE_COLUMNS = [
  'package_status',
  'carrier',
  'tracking_status',
  'data_origin',
  'push_status',
  'push_status_code',
] as const;
export type ChoiceColumn = (typeof CHOICE_COLUMNS)[number];

/** The offline list's filters, as columns and values (several values of one filter: any of them). */
export interface RecordQuery {
  /** Records whose column holds any of the values. */
  anyOf?: Partial<Record<ChoiceColumn, readonly (string | number)[] | undefined>> | undefined;
  /** Inclusive ranges of canonical times, by column. */
  ranges?: readonly { column: TimeColumn; from?: string | undefined; to?: string | undefined }[] | undefined;
  /** One number: a part of it, any case; several: exactly these. */
  numbers?: readonly string[] | undefined;
  /** Tag patterns: whole tag, any case, `*` for any text. */
  tags?: readonly string[] | undefined;
  subStatus?: readonly string[] | undefined;
  /** Exact order number (`--order`) or e-mail, any case: the fields of record-fields.ts these flags match. */
  order?: string | undefined;
  email?: string | undefined;
  /** Number, tag, order number or e-mail equal to this text or starting with it, any case. */
  search?: string | undefined;
  /** Still tracked, not delivered, and the latest event (or the registration, without events) before this time. */
  staleBefore?: string | undefined;
  orderBy?: string | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

export const TIME_COLUMNS = ['register_time', 'track_time', 'push_time', 'stop_track_time'] as const;
export type TimeColumn = (typeof TIME_COLUMNS)[number];

export interface ChangeQuery {
  /** Changes detected at or after this canonical time. */
  since?: string | undefined;
  status?: readonly string[] | undefined;
  /** Changes after this id (a cursor's position). */
  afterId?: number | undefined;
}

export interface MirrorCounts {
  records: number;
  details: number;
  changes: number;
}

/**
 * What `trk report` groups by, besides nothing: the carrier, the lane (origin and destination), the day of
 * registration.
 */
export const REPORT_KEYS = ['carrier', 'lane', 'day'] as const;
export type ReportKey = (typeof REPORT_KEYS)[number];

/** The records a report covers, and what makes a parcel stuck. */
export interface ReportQuery {
  /** Registered at or after this canonical time. */
  since?: string | undefined;
  carriers?: readonly number[] | undefined;
  /** Origin and destination countries (as the records hold them: ISO codes). */
  origins?: readonly string[] | undefined;
  destinations?: readonly string[] | undefined;
  /**
   * Stuck: still tracked, neither delivered, expired nor returned, and either the service's days_after_last_update
   * (as last read) at least `days`, or the latest event before `before` (the start of the UTC day `days` days ago:
   * the mirror's copy of the service's count does not age between syncs; the event's time does).
   */
  stuck: { days: number; before: string };
}

/**
 * The counts of a group (ReportCounts), in the order of the rows of the report's query (report-sql.ts): what the
 * report's figures add up and its columns show.
 */
export const REPORT_COUNTS = [
  'registered',
  'delivered',
  'exceptions',
  'delivery_failures',
  'in_transit',
  'not_found',
  'expired',
  'stuck',
] as const;

/**
 * Counts of the records of one group (one value of each key asked for; null for keys not asked for, or unknown), or
 * of a part of it.
 */
export interface ReportCounts {
  carrier: number | null;
  origin: string | null;
  destination: string | null;
  /** The UTC day of registration, YYYY-MM-DD. */
  day: string | null;
  registered: number;
  delivered: number;
  exceptions: number;
  delivery_failures: number;
  /** InfoReceived, InTransit, AvailableForPickup, OutForDelivery: on the way, nothing wrong. */
  in_transit: number;
  not_found: number;
  expired: number;
  stuck: number;
}

/** What a report reads of the records: counts, and transit days. */
export interface ReportRecords {
  counts: ReportCounts[];
  transit: ReportTransit[];
}

/** Parcels of one group registered on one day. */
export interface ReportRegistered {
  carrier: number | null;
  origin: string | null;
  destination: string | null;
  /** The UTC day of registration, YYYY-MM-DD. */
  day: string | null;
  registered: number;
}

/**
 * Delivered parcels of one group (by their details) with an estimated delivery window, and those delivered by its end.
 */
export interface ReportWindows {
  carrier: number | null;
  origin: string | null;
  destination: string | null;
  day: string | null;
  with_window: number;
  on_time: number;
}

/** Delivered parcels of one group that took `days` days in transit (the service's days_of_transit_done). */
export interface ReportTransit {
  carrier: number | null;
  origin: string | null;
  destination: string | null;
  day: string | null;
  days: number;
  count: number;
}

/** A parcel a report lists: stuck, or in trouble (Exception, DeliveryFailure). */
export interface ReportParcel extends RecordKey, ParcelReferences {
  origin: string | null;
  destination: string | null;
  package_status: string | null;
  sub_status: string | null;
  register_time: string | null;
  latest_event_time: string | null;
  latest_event: string | null;
  /** The service's days_after_last_update, as last read. */
  days_after_last_update: number | null;
}

export type ReportParcelKind = 'stuck' | 'trouble';

/** The mirror: the account's records, details and changes, and trk notify's rules and ledger (notify-types.ts). */
export interface Store extends NotifyStore {
  /** Where the mirror is, for messages (a path; never a password). */
  readonly location: string;
  close(): Promise<void>;
  /**
   * Whether this process can write the mirror: not one on a read-only file system, a standby server or for a user
   * who may only read (what a reader would write: its cursors).
   */
  writable(): Promise<boolean>;
  /**
   * Reads every page of the mirror, and fails naming it where one is damaged (SQLite's quick check; a PostgreSQL
   * server checks each page as it reads it). O(size): for a sync once a day, not for reads.
   */
  check(): Promise<void>;

  /** A value of the sync state (watermark, list version, account, times of the last syncs). */
  state(name: string): Promise<string | undefined>;
  setState(values: Readonly<Record<string, string>>): Promise<void>;
  /** The next number of a full sync, to mark the records it sees. */
  nextFullSync(): Promise<number>;

  /** One page of records in one transaction; those of a full sync are marked as seen by it. */
  writeRecords(rows: readonly RecordRow[], fullSync?: number): Promise<{ added: number }>;
  /**
   * One answer's details in one transaction: stored unless the mirror holds newer ones (of a later tracking of the
   * record, or of the same with a later providers' time), which then answer the record's tracking as well; a change
   * is recorded when the status moved (a sync's first details of a record are no change; a webhook's always
   * compare).
   */
  writeDetails(rows: readonly DetailsRow[], source: ChangeSource): Promise<DetailsWrite>;
  /** TRACKING_STOPPED: the record is no longer tracked (expired). */
  markStopped(key: RecordKey, fields: { tag: string | null; param: string | null }): Promise<void>;
  /** Records whose details are missing or answer an earlier tracking than theirs, after `after`, in key order. */
  pendingDetails(after: RecordKey | undefined, limit: number): Promise<(RecordKey & { track_time: string | null })[]>;
  /** Records a full sync did not see, after `after`, in key order. */
  unseen(fullSync: number, after: RecordKey | undefined, limit: number): Promise<RecordKey[]>;
  deleteRecords(keys: readonly RecordKey[]): Promise<number>;

  /** The records matching `query`, in its order, a batch at a time. */
  records(query: RecordQuery): AsyncIterable<StoredRecord[]>;
  /**
   * `trk find`: the first `limit` records holding `text` in any part of their number, tag, order number or e-mail,
   * literally, letters A to Z in any case, in the order the mirror first saw them (find-sql.ts).
   */
  find(text: string, limit: number): Promise<RecordKey[]>;
  /** Details of these numbers (every carrier of each), and the records of those that have none. */
  details(
    numbers: readonly string[],
    carrier?: number,
  ): Promise<{ details: StoredRecord[]; withoutDetails: RecordKey[] }>;
  changes(query: ChangeQuery): Promise<ListedChange[]>;
  /** The id of the last change a cursor has seen (0 for a new one). */
  cursor(name: string): Promise<number>;
  /** Moves a cursor forward to `to` (never back). */
  advanceCursor(name: string, to: number): Promise<void>;
  counts(): Promise<MirrorCounts>;

  /**
   * `trk report`, in one pass over the records `query` covers: their counts by `keys` (a group's in one row or
   * several, to be added up), and how many delivered parcels took each number of days in transit.
   */
  reportRecords(query: ReportQuery, keys: readonly ReportKey[]): Promise<ReportRecords>;
  /** `trk report`: parcels registered each day, by `keys` (weekly volumes). */
  reportRegistered(query: ReportQuery, keys: readonly ReportKey[]): Promise<ReportRegistered[]>;
  /** `trk report`: delivered parcels with an estimated delivery window, and those on time, by `keys`. */
  reportWindows(query: ReportQuery, keys: readonly ReportKey[]): Promise<ReportWindows[]>;
  /**
   * `trk report`: stuck parcels (the longest without news first) or parcels in trouble (the latest first), at most
   * `limit` of them.
   */
  reportParcels(query: ReportQuery, kind: ReportParcelKind, limit?: number): Promise<ReportParcel[]>;
}
