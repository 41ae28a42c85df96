// The time metrics of the specification (whole UTC days), from the fields a tracking run stores on a
// record: gettracklist (v2.1) shows them without building the record's track_info.

import { utcDay } from './time.js';
import type { RecordState } from './types.js';

export interface DayMetrics {
  /** The placeholder `--` when there is no result. */
  days_after_order: number | '--';
  days_after_last_update: number;
  days_of_transit: number;
  days_of_transit_done: number;
}

type MetricFields = Pick<
  RecordState,
  'status' | 'subStatus' | 'firstEventMs' | 'lastEventMs' | 'deliveredMs' | 'transitStartMs'
>;

/**
 * `numeric`: 0 instead of the spec's `--` placeholder (the emulator's numericMetrics option, for clients whose
 * typed decoders cannot take a string there).
 */
export function dayMetrics(rec: MetricFields, now: number, numeric = false): DayMetrics {
  if (rec.firstEventMs === null) {
    return {
      days_after_order: numeric ? 0 : '--',
      days_after_last_update: 0,
      days_of_transit: 0,
      days_of_transit_done: 0,
    };
  }
  const delivered = rec.status === 'Delivered' && rec.deliveredMs !== null;
  // Delivered: counted to the delivery date; otherwise to today.
  const end = utcDay(delivered ? (rec.deliveredMs as number) : now);
  const first = utcDay(rec.firstEventMs);
  const returned = rec.subStatus === 'Exception_Returned';
  const transit = rec.transitStartMs === null ? 0 : Math.max(0, end - utcDay(rec.transitStartMs));
  return {
    days_after_order: Math.max(0, end - first),
    days_after_last_update:
      delivered || returned || rec.lastEventMs === null ? 0 : Math.max(0, utcDay(now) - utcDay(rec.lastEventMs)),
    days_of_transit: transit,
    days_of_transit_done: delivered ? transit : 0,
  };
}
