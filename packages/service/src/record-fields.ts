// ONE registry of the fields a registration record (a gettracklist item) carries that trk reads as they are sent,
// the answer side's counterpart of fields.ts. For each: its name on the wire in each shape of record, what its
// values are, whether it says whose parcel it is (a customer reference: `--search` looks at its start, `find` at
// any part of it, a report shows it), the list flag that matches it whole, and its list column. The key is the
// field's name in the mirror's records table (store/rows.ts keeps every field) and, for a field with a list column,
// in the record view (records.ts) and `trk list`'s columns. Fields that trk derives (statuses, v1's codes,
// carriers, countries, times shown in tables) stay with their readers in records.ts.
// Light: command declarations read the column names from here.
//
// The order is the order of the mirror's record columns (store/schema.ts).

/** What a field's values are: text, a time (the mirror keeps it in canonical form), or a count of days. */
export type AnswerKind = 'text' | 'time' | 'count';

/** A list column of a field (src/output/render.ts's Column), placed after another record column. */
export interface AnswerColumn {
  readonly header: string;
  /** The record column it is shown after. */
  readonly after: string;
  readonly shrink?: number;
  readonly wide?: number;
  /** Shown with -o wide only. */
  readonly extra?: boolean;
}

export interface RecordFieldSpec {
  readonly kind: AnswerKind;
  /** Its name in a v2 record (v2.1 adds fields, names none otherwise) and in a v1 record; absent: not carried. */
  readonly wire: { readonly v2: string; readonly v1?: string };
  /** A customer reference; `shown` ranks those a report shows (the first set one). */
  readonly reference?: { readonly shown?: number };
  /** The `trk list` flag that matches it whole, any case. */
  readonly filter?: 'order' | 'email';
  readonly column?: AnswerColumn;
}

export const RECORD_FIELDS = {
  tag: {
    kind: 'text',
    wire: { v2: 'tag', v1: 'tag' },
    reference: { shown: 2 },
    column: { header: 'TAG', after: 'carrier_changes', shrink: 10, wide: 10 },
  },
  // v1 records carry none; an item of either shape is read for it all the same.
  email: {
    kind: 'text',
    wire: { v2: 'email', v1: 'email' },
    reference: {},
    filter: 'email',
    column: { header: 'EMAIL', after: 'delivered', shrink: 10, wide: 40, extra: true },
  },
  order_no: {
    kind: 'text',
    wire: { v2: 'order_no' },
    reference: { shown: 1 },
    filter: 'order',
    column: { header: 'ORDER', after: 'delivered', shrink: 8, wide: 65, extra: true },
  },
  order_time: { kind: 'time', wire: { v2: 'order_time', v1: 'order_time' } },
  lang: { kind: 'text', wire: { v2: 'lang', v1: 'lang' } },
  remark: {
    kind: 'text',
    wire: { v2: 'remark' },
    column: { header: 'REMARK', after: 'order_no', shrink: 10, wide: 99, extra: true },
  },
  days_after_order: {
    kind: 'count',
    wire: { v2: 'days_after_order' },
    column: { header: 'DAYS', after: 'latest_event', wide: 60, extra: true },
  },
  days_after_last_update: { kind: 'count', wire: { v2: 'days_after_last_update', v1: 'days_after_last_update' } },
  days_of_transit: {
    kind: 'count',
    wire: { v2: 'days_of_transit' },
    column: { header: 'IN TRANSIT', after: 'days_after_order', wide: 60, extra: true },
  },
  days_of_transit_done: { kind: 'count', wire: { v2: 'days_of_transit_done', v1: 'days_of_transit_done' } },
  pickup_time: { kind: 'time', wire: { v2: 'pickup_time', v1: 'pickup_time' } },
} as const satisfies Readonly<Record<string, RecordFieldSpec>>;

export type RecordField = keyof typeof RECORD_FIELDS;
export const RECORD_FIELD_NAMES = Object.keys(RECORD_FIELDS) as RecordField[];

type ValueOfKind<K extends AnswerKind> = K extends 'count' ? number : string;
/** The fields' values as the view and the mirror hold them (null: not sent, or not a value of its kind). */
export type RecordFieldValues = { [F in RecordField]: ValueOfKind<(typeof RECORD_FIELDS)[F]['kind']> | null };

export function recordFieldSpec(field: RecordField): RecordFieldSpec {
  return RECORD_FIELDS[field];
}

type FieldsWith<P> = { [F in RecordField]: (typeof RECORD_FIELDS)[F] extends P ? F : never }[RecordField];

/** Fields with a list column, and so a `trk list` column name. */
export type ColumnField = FieldsWith<{ column: AnswerColumn }>;
export const COLUMN_FIELDS = RECORD_FIELD_NAMES.filter((f) => recordFieldSpec(f).column) as ColumnField[];

/** `names` with each field's column placed after the one it follows. */
export function withFieldColumns<N extends string>(names: readonly N[]): (N | ColumnField)[] {
  const out: (N | ColumnField)[] = [...names];
  for (const field of COLUMN_FIELDS) {
    const after = out.indexOf(recordFieldSpec(field).column!.after as N);
    if (after < 0) throw new Error(`the column of ${field} follows an unknown column`);
    out.splice(after + 1, 0, field);
  }
  return out;
}

/** What `--search` (the start, any case) and `find` (any part) look at besides the number. */
export const SEARCHED_FIELDS = RECORD_FIELD_NAMES.filter((f) => recordFieldSpec(f).reference);

/** The customer references (order number, e-mail, tag): the fields `find` looks in, columns of changes and find. */
export type ReferenceField = FieldsWith<{ reference: object }>;
export type ReferenceValues = { [F in ReferenceField]: string | null };
export const REFERENCE_FIELDS = SEARCHED_FIELDS as ReferenceField[];
/** The columns of a parcel's references: each reference field's, then `customer` (its first shown reference). */
export const REFERENCE_COLUMN_NAMES: readonly (ReferenceField | 'customer')[] = [...REFERENCE_FIELDS, 'customer'];

/** The field each exact list flag matches. */
export const FILTER_FIELDS = RECORD_FIELD_NAMES.filter((f) => recordFieldSpec(f).filter).map((f) => ({
  flag: recordFieldSpec(f).filter!,
  field: f,
}));

/** The references a report shows of a parcel, the first set one: order number, else tag. */
export type ShownReferenceField = FieldsWith<{ reference: { shown: number } }>;
export type ParcelReferences = { [F in ShownReferenceField]: string | null };
const shownRank = (field: RecordField): number | undefined => recordFieldSpec(field).reference?.shown;
export const SHOWN_REFERENCE_FIELDS = (RECORD_FIELD_NAMES.filter(shownRank) as ShownReferenceField[]).sort(
  (a, b) => shownRank(a)! - shownRank(b)!,
);

/** The parcel's customer reference: the first of its shown references that is set, else empty. */
export function parcelReference(p: ParcelReferences): string {
  for (const field of SHOWN_REFERENCE_FIELDS) {
    const value = p[field];
    if (value !== null && value !== undefined) return value;
  }
  return '';
}
